import CairnPostgres
import Logging
import ServiceLifecycle

/// Follows a PostgreSQL store while the server runs: the store's change feed (`PostgresChangeFeed`: LISTEN, then
/// the changes since the generation served, also after a reconnect) applied to the served state. While the
/// connection is down the server answers from what it has, and `/healthz` and `/metrics` say so.
struct PostgresFollower: Service {
    let served: ServedStore
    let feed: PostgresChangeFeed

    init(served: ServedStore, url: PostgresStoreURL, logger: Logger) {
        self.served = served
        feed = PostgresChangeFeed(url: url, generation: served.state.generation, logger: logger,
                                  held: { [served] in served.state.generation }) { [served] changes in
            try await served.apply(changes)
        }
        served.postgresFeed.withLock { $0 = feed }
    }

    func run() async throws {
        await cancelWhenGracefulShutdown { await feed.run() }
    }
}
