import CairnCore

/// The cluster hierarchy as last served, the edits of the index it has yet to follow, and the writers waiting for
/// it to catch up (`ServedStore+Hierarchy`).
struct HierarchyBacklog: Sendable {
    /// The hierarchy the served clusters hold (sharing its storage).
    private(set) var hierarchy: ServedHierarchy
    /// The store generation `hierarchy` matches.
    private(set) var generation: Int64
    /// The epoch of the clusters last served (`ServedClusters.epoch`).
    private(set) var epoch: UInt64
    /// The edits made since `generation`, oldest first, and the generation they bring it to.
    private var edits: [ServedHierarchy.Edit] = []
    private var editsGeneration: Int64
    /// Whether a task is following the edits now.
    private var following = false
    /// Counts the reloads: a round begun before one is not served.
    private var reloads = 0
    /// Writers waiting for the hierarchy to reach a generation.
    private var waiters: [(generation: Int64, continuation: CheckedContinuation<Void, Never>)] = []

    /// What one round of following takes: the hierarchy, the edits to apply to it, the generation they bring it to.
    struct Round: Sendable {
        let hierarchy: ServedHierarchy
        let edits: [ServedHierarchy.Edit]
        let generation: Int64
        let reloads: Int
    }

    /// A backlog of nothing over `hierarchy`, as of `generation`, with clusters of `epoch`.
    /// - Complexity: O(1).
    init(_ hierarchy: ServedHierarchy, generation: Int64, epoch: UInt64) {
        self.hierarchy = hierarchy
        self.generation = generation
        self.epoch = epoch
        editsGeneration = generation
    }

    /// Adds the edits that bring the index to `generation`.
    /// - Returns: whether a task must be started to follow them (none runs).
    /// - Complexity: O(m) for m edits.
    mutating func add(_ more: [ServedHierarchy.Edit], generation: Int64) -> Bool {
        edits += more
        editsGeneration = generation
        guard !following else { return false }
        following = true
        return true
    }

    /// The next round, emptying the backlog; nil when the hierarchy is up to date (the task then ends).
    /// - Complexity: O(1).
    mutating func nextRound() -> Round? {
        guard editsGeneration > generation else {
            following = false
            return nil
        }
        defer { edits = [] }
        return Round(hierarchy: hierarchy, edits: edits, generation: editsGeneration, reloads: reloads)
    }

    /// The epoch the next round's clusters get, if it is served.
    var nextEpoch: UInt64 { Self.next(epoch) }

    /// Takes the result of `round` as served with clusters of `epoch` (`nextEpoch`), unless a reload came meanwhile.
    /// - Returns: whether it is to be served.
    /// - Complexity: O(1).
    mutating func finish(_ round: Round, with result: ServedHierarchy, epoch: UInt64) -> Bool {
        guard round.reloads == reloads else { return false }
        hierarchy = result
        generation = round.generation
        self.epoch = epoch
        return true
    }

    /// Drops the edits up to `generation`, for a hierarchy built afresh over the index as of it: the round that
    /// ends with that hierarchy.
    /// - Complexity: O(1).
    mutating func restart(at generation: Int64) -> Round {
        edits = []
        editsGeneration = generation
        return Round(hierarchy: hierarchy, edits: [], generation: generation, reloads: reloads)
    }

    /// Starts over from `reloaded` as of `generation`: the edits pending are in it.
    /// - Returns: the epoch of its clusters.
    /// - Complexity: O(1).
    mutating func reload(_ reloaded: ServedHierarchy, generation: Int64) -> UInt64 {
        hierarchy = reloaded
        self.generation = generation
        edits = []
        editsGeneration = generation
        reloads += 1
        epoch = Self.next(epoch)
        return epoch
    }

    /// Registers `continuation` to resume once the hierarchy reaches `target`.
    /// - Returns: false, without registering, when it already has.
    /// - Complexity: O(1).
    mutating func wait(for target: Int64, _ continuation: CheckedContinuation<Void, Never>) -> Bool {
        guard generation < target else { return false }
        waiters.append((target, continuation))
        return true
    }

    /// Removes and returns the waiters for a generation up to `limit`, to resume outside the lock.
    /// - Complexity: O(w) for w waiters.
    mutating func takeWaiters(upTo limit: Int64) -> [CheckedContinuation<Void, Never>] {
        let ready = waiters.filter { $0.generation <= limit }.map(\.continuation)
        waiters.removeAll { $0.generation <= limit }
        return ready
    }

    /// The epoch after `epoch` (wrapping at `ServedState.epochLimit`).
    private static func next(_ epoch: UInt64) -> UInt64 { (epoch + 1) % ServedState.epochLimit }
}
