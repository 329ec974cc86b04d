import CairnCore
import CairnPostgres
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Hummingbird
import Logging
import Metrics
import NIOPosix
import Prometheus
import ServiceLifecycle

/// The map backend: the store's features, index and clusters held in memory and served over HTTP (Hummingbird),
/// with the CLI's answers, edits through the API, another process's imports followed, and metrics.
public enum CairnServer {
    /// The metrics registry of the process: swift-metrics can be bootstrapped once, so every server of the process
    /// (tests start several) reports to this one.
    static let registry: PrometheusCollectorRegistry = {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        return registry
    }()

    /// The server for `configuration`, ready to run (`runService()`) or to test (HummingbirdTesting).
    /// Loads the store's features and clusters them before returning.
    /// - Throws: `ServerError`, `StoreError` when the store cannot be read.
    /// - Complexity: O(n log n) for n features.
    public static func makeApplication(configuration: ServerConfiguration, logger: Logger = Logger(label: "cairn")) throws -> some ApplicationProtocol {
        let served = try ServedStore(path: configuration.storePath, clusterOptions: configuration.clusterOptions,
                                     answerCacheBytes: configuration.answerCacheBytes)
        let follower = StoreFollower(served: served, intervalSeconds: configuration.reloadIntervalSeconds, logger: logger)
        return try makeApplication(served: served, follower: follower, configuration: configuration, logger: logger)
    }

    /// The server for `configuration` whose `storePath` is a PostgreSQL store URL (`postgres://…`): a replica that
    /// loads the table, then follows the store's change feed. Loads before returning.
    /// - Throws: `PostgresStoreError`, `ServerError`.
    /// - Complexity: O(n log n) for n features.
    public static func makeReplicaApplication(configuration: ServerConfiguration, logger: Logger = Logger(label: "cairn")) async throws -> some ApplicationProtocol {
        let url = try PostgresStoreURL(configuration.storePath)
        let served = try await ServedStore.replica(of: url, writes: configuration.writeToken != nil, clusterOptions: configuration.clusterOptions,
                                                   answerCacheBytes: configuration.answerCacheBytes, logger: logger)
        let follower = PostgresFollower(served: served, url: url, logger: logger)
        return try makeApplication(served: served, follower: follower, configuration: configuration, logger: logger)
    }

    static func makeApplication(served: ServedStore, follower: some Service, configuration: ServerConfiguration,
                                        logger: Logger) throws -> some ApplicationProtocol {
        let registry = Self.registry
        let routes = ServerRoutes(served: served, configuration: configuration,
                                  limits: ServerLimits(configuration: configuration, registry: registry),
                                  mapAssets: try MapAssets(leafletFolder: configuration.leafletFolder, basemapPath: configuration.basemapPath))
        let router = Router(context: CairnRequestContext.self)
        router.add(middleware: MetricsMiddleware())
        router.add(middleware: RequestChannelMiddleware())
        router.get("places/around_location") { request, _ in try routes.around(request) }
        router.get("features") { request, _ in try routes.features(request) }
        router.get("features/:id") { request, context in try routes.feature(request, id: try context.parameters.require("id")) }
        router.put("features/:id") { request, context in try await routes.putFeature(request, id: try context.parameters.require("id")) }
        router.delete("features/:id") { request, context in try await routes.deleteFeature(request, id: try context.parameters.require("id")) }
        router.post("features") { request, _ in try await routes.postFeatures(request) }
        router.get("nearest") { request, _ in try routes.nearest(request) }
        router.get("containing") { request, _ in try routes.containing(request) }
        router.get("clusters") { request, _ in try await routes.clusters(request) }
        router.get("clusters/:id/children") { request, context in try await routes.clusterChildren(request, id: try context.parameters.require("id")) }
        router.get("clusters/:id/leaves") { request, context in try await routes.clusterLeaves(request, id: try context.parameters.require("id")) }
        router.get("clusters/:id/expansion_zoom") { request, context in
            try await routes.clusterExpansionZoom(request, id: try context.parameters.require("id"))
        }
        router.get("geohash/encode") { request, _ in try routes.geohashEncode(request) }
        router.get("geohash/decode/:hash") { request, context in try routes.geohashDecode(try context.parameters.require("hash")) }
        router.get("geohash/neighbors/:hash") { request, context in try routes.geohashNeighbors(try context.parameters.require("hash")) }
        router.get("geohash/cover") { request, _ in try routes.geohashCover(request) }
        router.get("geohash/prefix/:prefix") { request, context in try routes.geohashPrefix(request, prefix: try context.parameters.require("prefix")) }
        router.post("checkins/validate") { request, _ in try await routes.validateCheckIns(request) }
        router.get("tiles/:z/:x/:y") { request, context in
            try await routes.tile(request, z: try context.parameters.require("z"), x: try context.parameters.require("x"),
                                  y: try context.parameters.require("y"))
        }
        router.get("tiles.json") { request, _ in try await routes.tileJSON(request) }
        router.get("/") { _, _ in routes.mapPage() }
        router.get("leaflet/:file") { _, context in try routes.leaflet(file: try context.parameters.require("file")) }
        router.get("basemap.geojson") { _, _ in try routes.basemap() }
        router.get("healthz") { request, _ in routes.health(request) }
        router.get("metrics") { request, _ in routes.metrics(request, registry: registry) }

        let loaded = served.state
        return Application(
            router: router,
            server: .http1(configuration: .init(idleTimeout: .seconds(Int64(configuration.idleTimeoutSeconds)))),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "cairn"),
            services: [follower],
            onServerRunning: { channel in
                // One line a person or a script (the tests, the tour) reads to learn the address, port 0 included.
                let port = channel.localAddress?.port ?? configuration.port
                let line = "cairn serve: listening on http://\(configuration.host):\(port) (\(loaded.index.count) features, store generation \(loaded.generation))\n"
                _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
            },
            eventLoopGroupProvider: .shared(MultiThreadedEventLoopGroup(numberOfThreads: max(1, configuration.threads))),
            logger: logger
        )
    }

    /// Runs the server until SIGTERM or SIGINT, then lets the requests in flight finish and returns.
    /// - Throws: what `makeApplication` throws, or an error binding the address.
    public static func run(configuration: ServerConfiguration, logger: Logger = Logger(label: "cairn")) async throws {
        if PostgresStoreURL.isPostgres(configuration.storePath) {
            try await makeReplicaApplication(configuration: configuration, logger: logger).runService()
            return
        }
        try await makeApplication(configuration: configuration, logger: logger).runService()
    }
}
