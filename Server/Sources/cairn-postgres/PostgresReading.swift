import CairnCLI
import CairnCore
import CairnPostgres
import Foundation

/// The reader `cairn-postgres` installs for the CLI's commands (`PostgresCompanion`): each call connects, reads
/// (`PostgresFeatureStore.load`, one consistent read), and closes. The commands are synchronous, so each call
/// waits here for the asynchronous client, which runs on its own threads.
enum PostgresReading {
    static let reader = PostgresStoreReader(
        features: { url in
            try blocking { () async throws -> [Feature] in
                try await withStore(url) { store async throws(PostgresStoreError) in try await store.load().features }
            }
        },
        feature: { url, id in
            try blocking { () async throws -> Feature? in
                try await withStore(url) { store async throws(PostgresStoreError) in try await store.feature(id: id) }
            }
        },
        query: { url, query, kinds in
            try blocking { () async throws -> [(feature: Feature, distanceMeters: Double?)] in
                try await withStore(url) { store async throws(PostgresStoreError) in
                    let hits: [PostGISHit]
                    switch query {
                    case .box(let box): hits = try await store.features(in: box, kinds: kinds)
                    case .around(let center, let radius): hits = try await store.features(withinMeters: radius, of: center, kinds: kinds)
                    case .nearest(let center, let count, let maximum):
                        hits = try await store.nearest(to: center, count: count, maxDistanceMeters: maximum, kinds: kinds)
                    case .containing(let point): hits = try await store.containing(point, kinds: kinds)
                    }
                    return hits.map { ($0.feature, $0.distanceMeters) }
                }
            }
        }
    )

    /// Opens the store at `url` as a reader (no migrations: a database without this Cairn's schema is an error
    /// saying which writer to run), runs `body` and closes it, also when `body` throws.
    private static func withStore<Result>(_ url: String, _ body: (PostgresFeatureStore) async throws(PostgresStoreError) -> Result) async throws -> Result {
        let store = try await PostgresFeatureStore(url: try PostgresStoreURL(url), access: .reading)
        do {
            let result = try await body(store)
            await store.close()
            return result
        } catch {
            await store.close()
            throw error
        }
    }

    /// Runs `work` on the concurrency pool and waits for its result on this (synchronous) thread.
    private static func blocking<Result: Sendable>(_ work: @escaping @Sendable () async throws -> Result) throws -> Result {
        let outcome = Outcome<Result>()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do { outcome.set(.success(try await work())) } catch { outcome.set(.failure(error)) }
            done.signal()
        }
        done.wait()
        return try outcome.get()
    }

    /// A result handed from the pool's thread to the waiting one (the semaphore orders the two accesses).
    private final class Outcome<Value: Sendable>: @unchecked Sendable {
        private var result: Swift.Result<Value, any Error>?
        private let lock = NSLock()
        func set(_ result: Swift.Result<Value, any Error>) { lock.withLock { self.result = result } }
        func get() throws -> Value {
            guard let result = lock.withLock({ result }) else { throw CancellationError() }
            return try result.get()
        }
    }
}
