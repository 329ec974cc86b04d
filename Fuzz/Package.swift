// swift-tools-version:6.1
// The libFuzzer targets, a package of their own so that the main package's `swift build --build-tests` never
// builds them or needs sanitizers. Build and run them with `scripts/fuzz` (it passes
// `-Xswiftc -sanitize=fuzzer,address`; each target's `main.swift` starts libFuzzer's driver).
import Foundation
import PackageDescription

// A path dependency's identity is its folder's name, which is whatever the clone was called: read it here.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
let cairn = root.lastPathComponent

/// One executable per reader; each links libFuzzer and defines `LLVMFuzzerTestOneInput`.
func fuzzTarget(_ name: String) -> Target {
    .executableTarget(name: name, dependencies: ["FuzzSupport"])
}

let package = Package(
    name: "CairnFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [.package(path: "..")],
    targets: [
        // The harness the targets share: the input as a file, the invariants, the reference for check-ins.
        .target(name: "CFuzzerDriver"),
        .target(name: "FuzzSupport", dependencies: [
            "CFuzzerDriver",
            .product(name: "CairnCore", package: cairn),
            .product(name: "CairnIO", package: cairn),
            .product(name: "CairnCheckIns", package: cairn),
        ]),
        fuzzTarget("FuzzCSV"),
        fuzzTarget("FuzzGeoJSON"),
        fuzzTarget("FuzzGeoJSONSeq"),
        fuzzTarget("FuzzJSONLines"),
        fuzzTarget("FuzzCheckInsCSV"),
        fuzzTarget("FuzzCheckInsJSONLines"),
    ]
)
