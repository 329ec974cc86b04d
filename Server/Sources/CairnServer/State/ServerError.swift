/// Why the server cannot start or go on.
public enum ServerError: Error, CustomStringConvertible, Sendable {
    /// The store holds more features than cluster ids can name beside their epoch (2^27).
    case tooManyFeatures(Int)
    /// No file at the store's path.
    case noStore(String)
    /// The map page's outline (`--basemap`) cannot be read: the path and why.
    case unreadableBasemap(String, String)

    public var description: String {
        switch self {
        case .noStore(let path):
            "no store at '\(path)'; import data first (cairn import FILE --db \(path)) or pass --db PATH"
        case .unreadableBasemap(let path, let reason):
            "--basemap: cannot read '\(path)': \(reason)"
        case .tooManyFeatures(let count):
            "the store holds \(count) features; cairn serve clusters at most \(ServedState.maxClusteredFeatures - 1)"
        }
    }
}
