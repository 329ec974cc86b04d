import CairnCore
@testable import CairnPostgres
@testable import CairnServer
import CairnTestSupport
import Foundation
import Logging
import PostgresNIO
import Testing

/// The PostgreSQL server the suite runs against, from the environment.
private let postgresServerURL = ProcessInfo.processInfo.environment["CAIRN_TEST_POSTGRES_URL"].flatMap { try? PostgresStoreURL($0) }

/// `ServedStore` over PostgreSQL, in one process: the replica that writes and one that follows the store's change
/// feed (as `PostgresFollower` runs it). After edits through the first (moves, deletions), the second serves them:
/// its index at once, its clusters after their round; both replicas then hold the table's features in the table's
/// order, and clusters equal to a build over them. Needs `CAIRN_TEST_POSTGRES_URL` (scripts/test sets it).
@Suite(.enabled(if: postgresServerURL != nil, "CAIRN_TEST_POSTGRES_URL is not set: `scripts/postgres-local start` starts a server and prints one"))
struct ServedStorePostgresTests {
    /// How long the test waits for the follower: generous for CI's two busy cores; the latency is measured by
    /// scripts/replica-figures, not asserted.
    static let windowSeconds = 30.0

    @Test func editsThroughOneServedReplicaReachTheOtherWithItsClusters() async throws {
        let server = try #require(postgresServerURL)
        let logger = Logger(label: "cairn.tests")
        let name = "cairn_test_" + String(UInt64.random(in: 0 ... .max), radix: 16)
        let admin = try await PostgresSession.open(server.with(database: "postgres"), logger: logger)
        try await admin.execute(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), action: "creating a test database")
        let url = server.with(database: name)
        let towns = try SyntheticTowns.make(count: 1_500, seed: 21)
        let seed = try await PostgresFeatureStore(url: url, logger: logger)
        _ = try await seed.importFeatures(towns)

        let writer = try await ServedStore.replica(of: url, writes: true, clusterOptions: .standard, answerCacheBytes: 1 << 20, logger: logger)
        let follower = try await ServedStore.replica(of: url, writes: false, clusterOptions: .standard, answerCacheBytes: 1 << 20, logger: logger)
        let feed = PostgresChangeFeed(url: url, generation: follower.state.generation, retryMilliseconds: 100, logger: logger) { changes in
            try await follower.apply(changes)
        }
        let following = Task { await feed.run() }

        var random = SplitMix64(seed: 22)
        var generation: Int64 = 0
        for step in 0..<60 {
            let town = towns[random.below(towns.count)]
            let moved = try Feature(id: town.id, kind: .place, location: Coordinate(latitude: random.uniform(-60...70), longitude: random.uniform(-180...180)),
                                    attributes: ["step": .number(Double(step))])
            let deleted = step % 10 == 9 ? [towns[random.below(towns.count)].id] : []
            generation = try await writer.write(upserting: [moved], deleting: deleted).generation
            // A write's answer comes once the writer's clusters hold it.
            #expect(writer.state.clusters.generation >= generation, "step \(step)")
        }

        let deadline = Date().addingTimeInterval(Self.windowSeconds)
        while follower.state.generation < generation, Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(follower.state.generation == generation, "the follower still serves generation \(follower.state.generation)")
        await follower.hierarchyCaughtUp(to: generation)

        let table = try await seed.load().features
        let world = try BoundingBox(west: -180, south: -85, east: 180, north: 85)
        let fresh = ClusterIndex(features: table)
        for (name, served) in [("writer", writer), ("follower", follower)] {
            let state = served.state
            let sameIndex = state.index.features == table, sameHierarchy = state.clusters.features == table
            #expect(sameIndex, "the \(name)'s index holds the table's features in its order")
            #expect(sameHierarchy, "the \(name)'s clusters are over the table's features in its order")
            for zoom in [0, 4, 9, 16] {
                let same = Set(state.clusters.all.clusters(in: world, zoom: zoom)) == Set(fresh.clusters(in: world, zoom: zoom))
                #expect(same, "the \(name)'s clusters at zoom \(zoom) are a fresh build's")
            }
        }

        following.cancel()
        await following.value
        await seed.close()
        if case .postgres(let store, _) = writer.backend { await store.close() }
        if case .postgres(let store, _) = follower.backend { await store.close() }
        try await admin.execute(PostgresQuery(unsafeSQL: "DROP DATABASE \(name) WITH (FORCE)"), action: "dropping a test database")
        await admin.close()
    }
}
