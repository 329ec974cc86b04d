import CairnCore

/// Where a dataset's points come from.
public enum BenchDatasetSource: Sendable {
    /// Seeded uniform points.
    case uniform(count: Int)
    /// A places CSV file, every k-th row when `limit` is smaller than the file.
    case places(path: String, limit: Int?)
    /// Given points (tests).
    case points(name: String, [Coordinate])

    /// The dataset this source names; `seed` fixes the uniform points.
    /// - Throws: `BenchError.data` when a places file cannot be read.
    /// - Complexity: O(count) for uniform points, O(bytes of the file) for places.
    public func load(seed: UInt64) throws -> BenchDataset {
        switch self {
        case .uniform(let count): BenchDataset.uniform(count: count, seed: seed)
        case .places(let path, let limit): try BenchDataset.places(path: path, limit: limit)
        case .points(let name, let points): BenchDataset(name: name, points: points)
        }
    }
}
