import Foundation

/// Files committed to this repository (`Data/`, `Tests/Golden/`), found from this source file's path.
public enum RepositoryData {
    /// A committed file that is missing: tests that need it fail with this instead of being skipped.
    public struct MissingFile: Error, CustomStringConvertible {
        /// The path relative to the repository's root.
        public let relativePath: String
        public var description: String { "\(relativePath) is part of the repository but is missing from this checkout" }
    }

    /// The repository's root (this file is Tests/CairnTestSupport/RepositoryData.swift).
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The path of `relativePath` under the root, or `MissingFile` when it does not exist.
    public static func path(_ relativePath: String) throws -> String {
        let path = root.appendingPathComponent(relativePath).path
        guard FileManager.default.fileExists(atPath: path) else { throw MissingFile(relativePath: relativePath) }
        return path
    }

    /// The bytes of `relativePath`, decompressed when its name ends in `.gz` (through the system's `gzip -dc`).
    public static func bytes(_ relativePath: String) throws -> [UInt8] {
        let path = try path(relativePath)
        guard path.hasSuffix(".gz") else { return Array(try Data(contentsOf: URL(fileURLWithPath: path))) }
        return Array(try SystemCommand.run(["gzip", "-dc", path]).output)
    }
}
