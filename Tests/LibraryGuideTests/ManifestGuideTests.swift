import CairnTestSupport
import Foundation
import Testing

/// docs/LIBRARY.md, "Depending on Cairn": the manifests the guide shows, verbatim, name products and a platform
/// this package's own Package.swift declares.
@Suite struct ManifestGuideTests {
    static let byURL = """
        // swift-tools-version:6.1
        import PackageDescription

        let package = Package(
            name: "MapBackend",
            platforms: [.macOS(.v14)],
            dependencies: [
                .package(url: "https://github.com/OWNER/cairn", branch: "main"),
            ],
            targets: [
                .executableTarget(name: "MapBackend", dependencies: [
                    .product(name: "CairnCore", package: "cairn"),
                    .product(name: "CairnIO", package: "cairn"),
                    .product(name: "CairnStore", package: "cairn"),
                    .product(name: "CairnCheckIns", package: "cairn"),
                ]),
            ]
        )
        """

    static let byPath = """
        dependencies: [
            .package(path: "../cairn"),
        ],
        """

    /// `.product(name: "X", package: "cairn")` lines of a manifest text: the product names.
    static func productNames(in text: String) -> [String] {
        text.split(separator: "\n").compactMap { line in
            guard let start = line.range(of: ".product(name: \""), let end = line[start.upperBound...].firstIndex(of: "\"") else {
                return nil
            }
            return String(line[start.upperBound..<end])
        }
    }

    @Test func theGuidesManifestsNameWhatPackageSwiftDeclares() throws {
        let manifest = try String(contentsOfFile: try RepositoryData.path("Package.swift"), encoding: .utf8)
        #expect(manifest.contains("name: \"Cairn\""))
        #expect(manifest.contains("platforms: [.macOS(.v14)]") && Self.byURL.contains("platforms: [.macOS(.v14)]"))
        let products = Self.productNames(in: Self.byURL)
        #expect(products == ["CairnCore", "CairnIO", "CairnStore", "CairnCheckIns"])
        for product in products {
            #expect(manifest.contains(".library(name: \"\(product)\", targets: [\"\(product)\"])"), "\(product) is not a product")
        }
        // The path dependency's identity is the folder's name, the one `package:` names.
        #expect(Self.byPath.contains("\"../cairn\""))
    }
}
