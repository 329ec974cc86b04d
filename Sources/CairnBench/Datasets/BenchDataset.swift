import CairnCore
import CairnIO

/// The points one bench run indexes, with the name the report gives them.
public struct BenchDataset: Sendable {
    /// `uniform` or `places` (or a test's own name).
    public let name: String
    /// The points; item `i` of every engine is `points[i]`.
    public let points: [Coordinate]

    /// A dataset named `name` of `points`.
    /// - Complexity: O(1).
    public init(name: String, points: [Coordinate]) {
        self.name = name
        self.points = points
    }

    /// `count` points uniform in longitude [-180, 180) and latitude [-90, 90] degrees, fixed by `seed`.
    /// - Complexity: O(count).
    public static func uniform(count: Int, seed: UInt64) -> BenchDataset {
        var random = SeededRandom(seed: seed)
        var points: [Coordinate] = []
        points.reserveCapacity(count)
        while points.count < count {
            let longitude = random.uniform(-180...180)
            let latitude = random.uniform(-90...90)
            // Always in range; the throwing initialiser only refuses what cannot occur here.
            if let point = try? Coordinate(latitude: latitude, longitude: longitude) { points.append(point) }
        }
        return BenchDataset(name: "uniform", points: points)
    }

    /// The places of a GeoNames CSV file (`latitude` and `longitude` columns; gzip-compressed or plain),
    /// every `stride`-th row when `limit` asks for fewer than the file holds.
    /// - Throws: `BenchError.data` when the file cannot be read or has no latitude/longitude columns.
    /// - Complexity: O(bytes of the file).
    public static func places(path: String, limit: Int? = nil) throws -> BenchDataset {
        var points = try placeCoordinates(path: path)
        if let limit, limit > 0, points.count > limit {
            let stride = Double(points.count) / Double(limit)
            points = (0..<limit).map { points[Int(Double($0) * stride)] }
        }
        return BenchDataset(name: "places", points: points)
    }
}

/// Every row's coordinate, in file order, through CairnIO's streaming reader.
/// - Throws: `BenchError.data` when the file cannot be read or a row is invalid (a benchmark must not drop data silently).
/// - Complexity: O(bytes of the file).
private func placeCoordinates(path: String) throws -> [Coordinate] {
    var points: [Coordinate] = []
    do {
        try openFeatureReader(path: path, format: .csv, options: ImportOptions(kind: .place)).forEachRecord { feature in
            points.append(feature.location)
        } rejected: { rejection in
            throw BenchError.data("the places file has a bad row: \(rejection)")
        }
    } catch let error as InputError {
        throw BenchError.data("\(error) (pass --places PATH, or --dataset uniform)")
    }
    return points
}
