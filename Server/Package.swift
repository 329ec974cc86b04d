// swift-tools-version:6.1
import Foundation
import PackageDescription

// The map backend, `cairn-server` (what `cairn serve` runs), in a package of its own: the web stack it needs
// (Hummingbird, SwiftNIO, swift-service-lifecycle, swift-metrics) stays out of the library's and the CLI's build, so
// that `swift build` at the root builds no web server, prints no warning of these packages, and a one-off `cairn`
// query starts without their type metadata. It builds on the root package's products by path.
// A path dependency's identity is its folder's name, which is whatever the clone was called: read it here.
let cairn = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "CairnServer",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "CairnServer", targets: ["CairnServer"]),
        .library(name: "CairnPostgres", targets: ["CairnPostgres"]),
        .executable(name: "cairn-server", targets: ["cairn-server"]),
        .executable(name: "cairn-postgres", targets: ["cairn-postgres"]),
    ],
    // Exact versions, for the reason the root's Package.swift gives.
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        // Hummingbird without its default traits: Cairn reads no swift-configuration and needs no full Foundation.
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        .package(url: "https://github.com/apple/swift-http-types", exact: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", exact: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", exact: "2.4.1"),
        // PostgreSQL's wire protocol on NIO (COPY, LISTEN/NOTIFY), for CairnPostgres.
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
    ],
    targets: [
        // The store's index and clusters kept in memory, served over HTTP by Hummingbird.
        .target(name: "CairnServer", dependencies: [
            "CairnPostgres",
            .product(name: "CairnCore", package: cairn),
            .product(name: "CairnIO", package: cairn),
            .product(name: "CairnStore", package: cairn),
            .product(name: "CairnCheckIns", package: cairn),
            // Polygon validity on writes, the import's rule; GEOS itself is opened at run time, nothing linked.
            .product(name: "CairnGEOS", package: cairn),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Metrics", package: "swift-metrics"),
            .product(name: "Prometheus", package: "swift-prometheus"),
        ]),
        // The PostgreSQL/PostGIS store: migrations, COPY imports, writes, and the change feed replicas follow.
        // Here, not in the root package, so that the root builds no NIO (docs/ARCHITECTURE.md, "PostgreSQL").
        .target(name: "CairnPostgres", dependencies: [
            .product(name: "CairnCore", package: cairn),
            .product(name: "CairnIO", package: cairn),
            .product(name: "CairnStore", package: cairn),
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // What `cairn` runs for `--db postgres://…`: its import (CairnIO's readers into a COPY), and the CLI's own
        // queries, cluster, tiles and check-ins over the features it loads from PostgreSQL.
        .executableTarget(name: "cairn-postgres", dependencies: [
            "CairnPostgres",
            .product(name: "CairnCore", package: cairn),
            .product(name: "CairnIO", package: cairn),
            .product(name: "CairnCLI", package: cairn),
            .product(name: "CairnGEOS", package: cairn),
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        // `cairn serve`'s options, parsed as the CLI parses its own.
        .executableTarget(name: "cairn-server", dependencies: [
            "CairnServer",
            .product(name: "CairnCore", package: cairn),
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "CairnServerTests", dependencies: [
            "CairnServer",
            .product(name: "CairnCLI", package: cairn),
            .product(name: "CairnStore", package: cairn),
            .product(name: "CairnTestSupport", package: cairn),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "HummingbirdTesting", package: "hummingbird"),
        ]),
        // Run against a PostgreSQL server named by CAIRN_TEST_POSTGRES_URL (scripts/postgres-local starts one);
        // without it they are skipped, and say so.
        .testTarget(name: "CairnPostgresTests", dependencies: [
            "CairnPostgres",
            .product(name: "CairnCore", package: cairn),
            .product(name: "CairnIO", package: cairn),
            .product(name: "CairnStore", package: cairn),
            .product(name: "CairnTestSupport", package: cairn),
            .product(name: "Logging", package: "swift-log"),
        ]),
    ]
)
