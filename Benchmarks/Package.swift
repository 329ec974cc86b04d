// swift-tools-version:6.1
// Cairn's benchmarks for regression tracking, with ordo-one/benchmark: `swift package benchmark` in this folder.
// The side-by-side comparison with SQLite's R*Tree and GEOS's STRtree is `cairn bench` in the main package.
import PackageDescription

let package = Package(
    name: "CairnBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "Cairn", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The plugin runs executable targets in a folder named Benchmarks: this package's own folder.
        .executableTarget(
            name: "CairnBenchmarks",
            dependencies: [
                .product(name: "CairnCore", package: "Cairn"),
                .product(name: "CairnBench", package: "Cairn"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "CairnBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
