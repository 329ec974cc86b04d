import Logging
import NIOConcurrencyHelpers
import PostgresNIO

/// Follows a PostgreSQL store's edits for a replica: `LISTEN cairn_change` on a connection of its own, and at every
/// notification the changes since the last generation applied (`PostgresFeatureStore.changes(since:)`) handed to
/// `apply`. On connection loss it keeps the replica as it is, says so in `status`, reconnects (every
/// `retryMilliseconds`), and catches up from the last generation applied: the change log holds every id after it,
/// so nothing is missed and nothing is reloaded (unless the log says a `TRUNCATE` happened, or was pruned past that
/// generation: then it loads everything, says why in its log and in `status.reloading`, and counts it).
///
/// It listens before it reads the changes, so a write committed between the two is both read and notified (the
/// second read finds nothing new): never lost.
public final class PostgresChangeFeed: Sendable {
    public let url: PostgresStoreURL
    private let logger: Logger
    private let retryMilliseconds: Int
    private let state: NIOLockedValueBox<PostgresFollowStatus>
    /// Takes each change set in generation order; a set with `reloadNeeded` means: load everything again
    /// (`PostgresFeatureStore.load()`), and return that snapshot's generation, which the feed goes on from.
    private let apply: @Sendable (PostgresChanges) async throws -> Int64
    /// The generation the replica holds, if it applies changes of its own too.
    private let held: (@Sendable () -> Int64)?

    /// A feed for a replica that holds the store as of `generation`.
    /// - Parameter apply: applies a change set and returns the generation the replica now holds (the set's, or
    ///   after a reload the loaded one's); a throw is kept in `status` and the same changes are read again later.
    /// - Parameter held: the generation the replica holds now, when it also applies changes of its own (its writes,
    ///   read back from the store): a notification of a generation it already holds is then not read again.
    /// - Complexity: O(1).
    public init(url: PostgresStoreURL, generation: Int64, retryMilliseconds: Int = 250, logger: Logger = Logger(label: "cairn.postgres.feed"),
                held: (@Sendable () -> Int64)? = nil, apply: @escaping @Sendable (PostgresChanges) async throws -> Int64) {
        self.url = url
        self.held = held
        self.logger = logger
        self.retryMilliseconds = retryMilliseconds
        self.state = NIOLockedValueBox(PostgresFollowStatus(generation: generation))
        self.apply = apply
    }

    /// How following stands now.
    /// - Complexity: O(1).
    public var status: PostgresFollowStatus { state.withLockedValue { $0 } }

    /// Follows until the task is cancelled.
    /// - Complexity: per notification, O(c log n) for c changed ids.
    public func run() async {
        var first = true
        while !Task.isCancelled {
            var opened: PostgresSession?
            do {
                let session = try await PostgresSession.open(url, logger: logger)
                opened = session
                if !first { state.withLockedValue { $0.reconnects += 1 } }
                first = false
                try await session.connection.listen(on: PostgresSchema.channel) { notifications in
                    state.withLockedValue { $0.connected = true }
                    try await catchUp(session)
                    for try await notification in notifications {
                        if let generation = Int64(notification.payload), skipHeld(generation) { continue }
                        try await catchUp(session)
                    }
                }
                // The sequence ended without an error: the connection closed.
                throw PostgresStoreError.failed(action: "following the store", message: "the connection closed")
            } catch {
                await opened?.close()
                if Task.isCancelled { break }
                let message = PostgresSession.message(error)
                let changed = state.withLockedValue { status in
                    defer { status.connected = false; status.failure = message }
                    return status.failure != message || status.connected
                }
                if changed { logger.error("lost the store's change feed, retrying: \(message)") }
                guard (try? await Task.sleep(for: .milliseconds(retryMilliseconds))) != nil else { break }
            }
        }
        state.withLockedValue { $0.connected = false }
    }

    /// Whether the replica already holds `notified` (its own write, read back): the feed then goes on from the
    /// generation the replica holds, without reading the changes again (a query per write of its own).
    /// - Complexity: O(1).
    private func skipHeld(_ notified: Int64) -> Bool {
        guard let held else { return false }
        let holds = held()
        guard notified <= holds else { return false }
        state.withLockedValue { status in
            status.generation = max(status.generation, holds)
            status.failure = nil
        }
        return true
    }

    /// Reads and applies what changed after the last generation applied.
    private func catchUp(_ session: PostgresSession) async throws {
        let since = state.withLockedValue { $0.generation }
        let changes = try await PostgresFeatureStore.changes(session, since: since)
        guard changes.generation != since || changes.reloadNeeded else {
            state.withLockedValue { $0.failure = nil }
            return
        }
        if changes.reloadNeeded {
            let reason = Self.reloadReason(changes, since: since)
            logger.warning("\(reason)")
            state.withLockedValue { $0.reloading = reason }
        }
        let reached: Int64
        do {
            reached = try await apply(changes)
        } catch {
            state.withLockedValue { $0.reloading = nil }
            throw error
        }
        state.withLockedValue { status in
            status.generation = reached
            status.failure = nil
            status.applied += 1
            if changes.reloadNeeded {
                status.reloads += 1
                status.lastReload = status.reloading
                status.reloading = nil
            }
        }
    }

    /// What a replica at `since` says when `changes` ask for a full reload (its log and `/healthz`).
    static func reloadReason(_ changes: PostgresChanges, since: Int64) -> String {
        if let horizon = changes.prunedThrough {
            return "reloading every feature: this replica holds generation \(since), older than the change log's horizon "
                + "\(horizon) (the log keeps cairn_generation.kept_generations generations), so it cannot catch up from it"
        }
        if since > changes.generation {
            return "reloading every feature: this replica holds generation \(since), ahead of the store's \(changes.generation) (a store made anew)"
        }
        return "reloading every feature: the table was truncated after generation \(since)"
    }
}
