/// Edits the served features in place while requests read them without locks, with two copies of the content
/// (the "left-right" scheme): the *served* copy, which the current state shares, and the *spare*, which an earlier
/// state shared and which lacks the changes made since (`pending`). An edit brings the spare up to date and applies
/// itself there, and the two swap roles: the new state is made from the edited spare, the old served copy becomes
/// the spare. Once the requests that held the earlier state are done, nothing else holds the spare's storage, so
/// the edit changes it in place (copy on write finds it unique) instead of copying every feature, rowid and
/// hierarchy table; a request still holding it only makes that edit copy, as every edit did before.
///
/// Considered and not taken: persistent (tree-shaped) tables under the hierarchy and the index, which would share
/// storage between states without a second copy, at the price of every query's flat scans. The cost is memory:
/// the content is held twice.
struct ServedEditor: Sendable {
    /// The copy the current state was made from.
    private(set) var served: ServedContent
    /// The other copy, behind `served` by `pending`.
    private var spare: ServedContent
    /// The changes `served` has and `spare` lacks, oldest first.
    private var pending: [ServedChange] = []

    /// An editor of `content`: the spare starts as a copy of it (shared until the first edit copies it).
    /// - Complexity: O(1).
    init(_ content: ServedContent) {
        served = content
        spare = content
    }

    /// Applies `change` and returns the content to serve (a copy sharing storage with `served`).
    /// - Throws: what `ServedContent.apply` throws; the content is then as it was.
    /// - Complexity: `ServedContent.apply` of the pending changes and of `change`, in place when no state holds
    ///   the spare any more.
    mutating func apply(_ change: ServedChange) throws -> ServedContent {
        do {
            for earlier in pending { try spare.apply(earlier) }
            pending = []
            try spare.apply(change)
        } catch {
            // The spare may be half edited: start it again from the served copy.
            spare = served
            pending = []
            throw error
        }
        swap(&served, &spare)
        pending = [change]
        return served
    }

    /// Where the served and the spare copies keep their features, for tests: an edit in place leaves the storage
    /// where it was.
    /// - Complexity: O(1).
    var featureStorage: (served: UnsafeRawPointer?, spare: UnsafeRawPointer?) {
        (served.features.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) },
         spare.features.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) })
    }
}
