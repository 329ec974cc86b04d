// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Cairn",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "CairnCore", targets: ["CairnCore"]),
        .library(name: "CairnIO", targets: ["CairnIO"]),
        .library(name: "CairnStore", targets: ["CairnStore"]),
        .library(name: "CairnGEOS", targets: ["CairnGEOS"]),
        .library(name: "CairnCheckIns", targets: ["CairnCheckIns"]),
        .library(name: "CairnBench", targets: ["CairnBench"]),
        // The commands and the tests' helpers, for the server's package (Server/), which builds on them.
        .library(name: "CairnCLI", targets: ["CairnCLI"]),
        .library(name: "CairnTestSupport", targets: ["CairnTestSupport"]),
        .executable(name: "cairn", targets: ["cairn"]),
    ],
    // Exact versions: Package.resolved is not committed (a library's resolution belongs to its consumers), so
    // exact pins are what makes every clone build the same dependency code. Raising one is a reviewed change here.
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-atomics", exact: "1.3.0"),
        .package(url: "https://github.com/apple/swift-system", exact: "1.8.1"),
        // `cairn bench --db`'s latency histogram: constant memory for runs of any length, 3 significant digits.
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", exact: "0.2.0"),
        // `swift package generate-documentation`: a command plugin only, it adds no code to any target.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", exact: "1.5.0"),
    ],
    targets: [
        // C libraries from Debian, found with pkg-config. PROJ's and GEOS's headers only: both are opened at run
        // time, and no pkgConfig for them since pkg-config's `--libs` would link them (their headers are in
        // /usr/include).
        .systemLibrary(name: "CPROJ", providers: [.apt(["libproj-dev", "proj-data"])]),
        .systemLibrary(name: "CGEOS", providers: [.apt(["libgeos-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),

        // What Swift has no spelling for: a prefetch hint and a spin pause (header-only).
        .target(name: "CCairnShims"),
        .target(name: "CairnCore", dependencies: [
            "CCairnShims",
            .product(name: "Atomics", package: "swift-atomics"),
            .product(name: "SystemPackage", package: "swift-system"),
        ]),
        // GRDB for the MBTiles writer (an archive is an SQLite file; the server will write archives too); Atomics for
        // the cluster fragments' lock-free slots.
        .target(name: "CairnIO", dependencies: [
            "CairnCore", "CZlib",
            .product(name: "Atomics", package: "swift-atomics"),
            .product(name: "SystemPackage", package: "swift-system"),
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        // The store reads and writes its attribute JSON with CairnIO's one reader and writer (no cycle: CairnIO
        // depends only on CairnCore and GRDB).
        .target(name: "CairnStore", dependencies: [
            "CairnCore", "CairnIO",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "SystemPackage", package: "swift-system"),
        ]),
        // GEOS behind thin wrappers: a context per thread, its error handler, the STRtree, shape validity.
        .target(name: "CairnGEOS", dependencies: ["CairnCore", "CGEOS"]),
        // The bench's workloads, seeded datasets and in-process peers, shared by `cairn bench`, `cairn generate`
        // and Benchmarks/. GRDB for its SQLite module: the R*Tree peer uses the C API directly.
        .target(name: "CairnBench", dependencies: [
            "CairnCore", "CairnIO", "CairnGEOS",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "Histogram", package: "hdrhistogram-swift"),
        ]),
        // The batch check-in engine: reference loading, the parallel pipeline, verdict rows, stats.
        .target(name: "CairnCheckIns", dependencies: [
            "CairnCore", "CairnIO", "CairnStore",
            .product(name: "SystemPackage", package: "swift-system"),
        ]),
        .target(name: "CairnCLI", dependencies: [
            "CairnCore", "CairnIO", "CairnStore", "CairnCheckIns", "CairnBench", "CairnGEOS",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        // `cairn serve` runs the `cairn-server` executable of the package in Server/, so that the CLI neither links
        // nor builds the web stack (Hummingbird, NIO): see docs/ARCHITECTURE.md, "Two packages".
        .executableTarget(name: "cairn", dependencies: ["CairnCLI"]),

        // What every test target shares: temporary folders, the repository's data files, the seeded generator.
        .target(name: "CairnTestSupport", dependencies: ["CairnCore", "CZlib"], path: "Tests/CairnTestSupport"),
        .testTarget(name: "CairnCoreTests", dependencies: ["CairnCore", "CairnTestSupport"]),
        .testTarget(name: "CairnIOTests", dependencies: [
            "CairnIO", "CairnTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
        ], resources: [.copy("Fixtures")]),
        .testTarget(name: "CairnStoreTests", dependencies: [
            "CairnStore", "CairnTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        .testTarget(name: "CairnGEOSTests", dependencies: ["CairnGEOS", "CairnTestSupport"]),
        .testTarget(name: "CairnCheckInsTests", dependencies: ["CairnCheckIns", "CairnIO", "CairnTestSupport"]),
        .testTarget(name: "CairnBenchTests", dependencies: ["CairnBench", "CairnTestSupport"]),
        .testTarget(name: "CairnCLITests", dependencies: [
            "CairnCLI", "CairnCheckIns", "CairnBench", "CairnTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        // docs/LIBRARY.md's examples, verbatim, as a consumer compiles them: the public products only, no @testable
        // (scripts/library-guide --check also type-checks them outside this package, where `package` is out of reach).
        .testTarget(name: "LibraryGuideTests", dependencies: [
            "CairnCore", "CairnIO", "CairnStore", "CairnCheckIns", "CairnTestSupport",
        ]),
    ]
)
