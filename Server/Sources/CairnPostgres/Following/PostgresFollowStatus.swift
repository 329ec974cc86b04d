/// How a replica's following of the store stands, for `/healthz` and `/metrics`.
public struct PostgresFollowStatus: Sendable, Equatable {
    /// Whether the feed's connection is up and listening.
    public var connected = false
    /// The last generation applied.
    public var generation: Int64
    /// Why the connection was lost or a catch-up failed, until it works again.
    public var failure: String?
    /// Connections made after the first (each followed by a catch-up, not a reload).
    public var reconnects = 0
    /// Full reloads asked for (a `TRUNCATE`, a store made anew, or a change log pruned past the replica).
    public var reloads = 0
    /// Why a full reload is under way (the replica answers from what it had until it is done), nil otherwise.
    public var reloading: String?
    /// Why the last full reload happened, nil before the first.
    public var lastReload: String?
    /// Change sets applied.
    public var applied = 0

    /// The status of a feed that starts from `generation`.
    /// - Complexity: O(1).
    public init(generation: Int64) { self.generation = generation }
}
