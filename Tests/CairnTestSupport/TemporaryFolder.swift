import Foundation

/// A fresh folder under the system's temporary directory for one test, removed when the value goes away.
public final class TemporaryFolder {
    /// The folder.
    public let url: URL

    /// The folder's path.
    public var path: String { url.path }

    /// Creates the folder (`cairn-tests-<UUID>`).
    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("cairn-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { remove() }

    /// The path of a file named `name` inside the folder (the default is a store's usual name).
    public func path(_ name: String = "cairn.sqlite") -> String { url.appendingPathComponent(name).path }

    /// Writes UTF-8 text to a file named `name` in the folder and returns its path.
    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String {
        try write(name, bytes: Array(text.utf8))
    }

    /// Writes bytes to a file named `name` in the folder and returns its path.
    @discardableResult
    public func write(_ name: String, bytes: [UInt8]) throws -> String {
        let file = path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        return file
    }

    /// Removes the folder and everything in it now (it is also removed when the value goes away).
    public func remove() { try? FileManager.default.removeItem(at: url) }
}
