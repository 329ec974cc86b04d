import CairnCore

/// Edits the served features in place while requests read them without locks, with two copies of the content
/// (the "left-right" scheme): the *served* copy, which the current state shares, and the *spare*, which an earlier
/// state shared and which lacks the changes made since (`pending`). An edit brings the spare up to date and applies
/// itself there, and the two swap roles: the new state is made from the edited spare, the old served copy becomes
/// the spare. Once the requests that held the earlier state are done, nothing else holds the spare's storage, so
/// the edit changes it in place (copy on write finds it unique) instead of copying every feature and rowid; a
/// request still holding it only makes that edit copy, as every edit did before.
///
/// Considered and not taken: a persistent (tree-shaped) index, which would share storage between states without
/// a second copy, at the price of every query's flat scans. The cost is memory: the index is held twice.
struct ServedEditor: Sendable {
    /// The copy the current state was made from.
    private(set) var served: ServedContent
    /// The other copy, behind `served` by `pending`.
    private var spare: ServedContent
    /// The changes `served` has and `spare` lacks, oldest first.
    private var pending: [ServedChange] = []
    /// While a compaction of the index runs off the writers' path: its ticket and the changes made since it took
    /// its copy of the index, which its result replays.
    private var compaction: (ticket: UInt64, since: [ServedChange])?
    /// Whether `served` holds a compacted index that `spare` takes once it has caught up with `served`.
    private var spareTakesServedIndex = false

    /// An editor of `content`: the spare starts as a copy of it (shared until the first edit copies it).
    /// - Complexity: O(1).
    init(_ content: ServedContent) {
        served = content
        spare = content
    }

    /// Applies `change` and returns the content to serve (a copy sharing storage with `served`), with the change
    /// as edits of the features in order (`ServedContent.apply`), and the index the spare let go of when it took a
    /// compacted one: the caller releases it off the writers' path (it may be the last reference to a whole index).
    /// - Complexity: `ServedContent.apply` of the pending changes and of `change`, in place when no state holds
    ///   the spare any more.
    mutating func apply(_ change: ServedChange) -> (content: ServedContent, edits: [ServedHierarchy.Edit], retired: DynamicFeatureIndex?) {
        for earlier in pending { spare.apply(earlier) }
        pending = []
        var retired: DynamicFeatureIndex?
        if spareTakesServedIndex {
            // Caught up, the spare holds what `served` holds: its compacted index answers for both.
            retired = spare.replaceIndex(served.index)
            spareTakesServedIndex = false
        }
        let edits = spare.apply(change)
        swap(&served, &spare)
        pending = [change]
        compaction?.since.append(change)
        return (served, edits, retired)
    }

    /// Starts a compaction when the served index's pending edits pass `threshold` and none runs: returns the
    /// index to compact (a copy sharing storage) and the ticket to finish it with, else nil.
    /// - Complexity: O(1).
    mutating func startCompaction(threshold: Int) -> (index: DynamicFeatureIndex, ticket: UInt64)? {
        guard compaction == nil, served.index.pendingEdits > threshold else { return nil }
        let ticket = UInt64.random(in: 0 ... .max)
        compaction = (ticket, [])
        return (served.index, ticket)
    }

    /// The changes made since the compaction started with `ticket` took its copy, from the `from`-th on (for the
    /// compaction to replay them outside the lock), or nil when it is not this editor's running compaction.
    /// - Complexity: O(1).
    func changes(sinceCompaction ticket: UInt64, from: Int) -> ArraySlice<ServedChange>? {
        guard let running = compaction, running.ticket == ticket else { return nil }
        return running.since[from...]
    }

    /// Takes the compacted index of the compaction started with `ticket`, which has replayed the first `replayed`
    /// changes made since it started, after replaying the rest: the served copy holds it now, the spare once caught
    /// up. Returns the content to serve, or nil when `ticket` is not this editor's running compaction (a reload
    /// made a new editor meanwhile).
    /// - Complexity: O(1) amortised per change replayed here.
    mutating func finishCompaction(_ compacted: DynamicFeatureIndex, replayed: Int, ticket: UInt64) -> ServedContent? {
        guard let running = compaction, running.ticket == ticket else { return nil }
        compaction = nil
        var index = compacted
        for change in running.since[replayed...] { ServedContent.apply(change, to: &index) }
        served.replaceIndex(index)
        spareTakesServedIndex = true
        return served
    }

    /// Where the served and the spare copies keep their rowid tables, for tests: an edit in place leaves the storage
    /// where it was. (A `Dictionary` is one reference to its storage: its bytes are that address.)
    /// - Complexity: O(1).
    var rowidStorage: (served: UInt, spare: UInt) {
        (withUnsafeBytes(of: served.rowids) { $0.load(as: UInt.self) }, withUnsafeBytes(of: spare.rowids) { $0.load(as: UInt.self) })
    }
}
