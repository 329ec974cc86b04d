import CairnCore

/// Cairn's own indexes, through their allocation-free query variants.
public final class CairnEngine: BenchEngine {
    public let name = BenchEngineName.cairn.rawValue
    public let summary = "Cairn PointIndex (static k-d tree, 32-point leaves) and CircleIndex (radius tiers)"
    /// The point index of the last build (empty before it).
    public private(set) var index = PointIndex([Coordinate]())
    private var circles = CircleIndex([Circle]())
    /// The nearest queries' reused working memory.
    private var scratch = NearestScratch()

    /// An engine with empty indexes.
    /// - Complexity: O(1).
    public init() {}

    /// The point index's own count of its bytes.
    /// - Complexity: O(1).
    public var reportedMemoryBytes: Int? { index.memoryBytes }

    /// Builds the point index.
    /// - Complexity: O(n log n).
    public func build(points: [Coordinate]) {
        index = PointIndex(points)
    }

    /// Builds the circle index.
    /// - Throws: `CircleError.invalidRadius` for a negative, NaN or infinite radius.
    /// - Complexity: O(n log n).
    public func buildCircles(_ circles: [BenchCircle], model: DistanceModel) throws -> Bool {
        self.circles = CircleIndex(try circles.map { try Circle(center: $0.center, radiusMeters: $0.radiusMeters) })
        return true
    }

    /// The point index's box query.
    /// - Complexity: O(log n + k) for k results.
    public func search(in box: BoundingBox, into results: inout [Int]) {
        index.search(in: box, into: &results)
    }

    /// The point index's radius query.
    /// - Complexity: O(log n + k) for k results.
    public func within(radiusMeters: Double, of center: Coordinate, model: DistanceModel, into results: inout [Int]) {
        index.within(radiusMeters: radiusMeters, of: center, model: model, into: &results)
    }

    /// The point index's nearest query, with reused working memory.
    /// - Complexity: O(log n + count log count).
    public func nearest(to point: Coordinate, count: Int, model: DistanceModel, into results: inout [Neighbor]) {
        index.nearest(to: point, count: count, model: model, into: &results, scratch: &scratch)
    }

    /// The circle index's containment query.
    /// - Complexity: O(log n + k) for k circles found.
    public func containing(_ point: Coordinate, model: DistanceModel, into results: inout [Int]) {
        circles.containing(point, model: model, into: &results)
    }
}
