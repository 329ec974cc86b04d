import CairnCore

/// A circle for the containment workload: a place's check-in area.
struct BenchCircle: Hashable, Sendable {
    /// The centre.
    let center: Coordinate
    /// The radius, metres.
    let radiusMeters: Double
}

/// One engine the bench runs: built once over the dataset's points (and once over its circles), then asked
/// every query of the workload. Every answer must be exact: the same items every other engine returns.
///
/// Queries append to a caller's buffer (emptied by the caller, capacity kept) so the timed part allocates
/// nothing an engine does not allocate by itself.
protocol BenchEngine: AnyObject {
    /// The engine's name in the report: `cairn`, `sqlite-rtree`, `geos-strtree`.
    var name: String { get }
    /// What the engine is, with its library's version: `SQLite 3.40.1 R*Tree`.
    var summary: String { get }
    /// Bytes the engine's own accounting says it holds, when it has such accounting (the runner reports
    /// the growth across `build`).
    var reportedMemoryBytes: Int? { get }

    /// Indexes `points` (item `i` is `points[i]`); timed as the `build` operation.
    func build(points: [Coordinate]) throws
    /// Indexes `circles` (item `i` is `circles[i]`) for containment queries under `model`; not timed.
    /// Returns false when the engine has no containment index, and the containment operation skips it.
    func buildCircles(_ circles: [BenchCircle], model: DistanceModel) throws -> Bool

    /// Appends the items inside `box` (edges inclusive, wrap-around when west > east), in any order.
    func search(in box: BoundingBox, into results: inout [Int])
    /// Appends the items within `radiusMeters` of `center` (inclusive), in any order.
    func within(radiusMeters: Double, of center: Coordinate, model: DistanceModel, into results: inout [Int])
    /// Appends the `count` items nearest to `point`, nearest first, ties by item index.
    func nearest(to point: Coordinate, count: Int, model: DistanceModel, into results: inout [Neighbor])
    /// Appends the circles containing `point` (distance from the circle's centre to the point at most its
    /// radius), in any order.
    func containing(_ point: Coordinate, model: DistanceModel, into results: inout [Int])
}

/// The names of the engines `cairn bench` knows, in report order.
enum BenchEngineName: String, CaseIterable, Sendable {
    case cairn
    case sqliteRTree = "sqlite-rtree"
    case geosSTRtree = "geos-strtree"

    /// A fresh, unbuilt engine of this kind.
    /// - Throws: `BenchError` when the engine's library cannot start (a GEOS context, an SQLite database).
    func makeEngine() throws -> any BenchEngine {
        switch self {
        case .cairn: CairnEngine()
        case .sqliteRTree: try SQLiteRTreePeer()
        case .geosSTRtree: try GEOSSTRtreePeer()
        }
    }
}

/// Cairn's own indexes, through their allocation-free query variants.
final class CairnEngine: BenchEngine {
    let name = BenchEngineName.cairn.rawValue
    let summary = "Cairn PointIndex (static k-d tree, 32-point leaves) and CircleIndex (radius tiers)"
    private(set) var index = PointIndex([Coordinate]())
    private var circles = CircleIndex([Circle]())
    /// The nearest queries' reused working memory.
    private var scratch = NearestScratch()

    var reportedMemoryBytes: Int? { index.memoryBytes }

    func build(points: [Coordinate]) {
        index = PointIndex(points)
    }

    func buildCircles(_ circles: [BenchCircle], model: DistanceModel) throws -> Bool {
        self.circles = CircleIndex(try circles.map { try Circle(center: $0.center, radiusMeters: $0.radiusMeters) })
        return true
    }

    func search(in box: BoundingBox, into results: inout [Int]) {
        index.search(in: box, into: &results)
    }

    func within(radiusMeters: Double, of center: Coordinate, model: DistanceModel, into results: inout [Int]) {
        index.within(radiusMeters: radiusMeters, of: center, model: model, into: &results)
    }

    func nearest(to point: Coordinate, count: Int, model: DistanceModel, into results: inout [Neighbor]) {
        index.nearest(to: point, count: count, model: model, into: &results, scratch: &scratch)
    }

    func containing(_ point: Coordinate, model: DistanceModel, into results: inout [Int]) {
        circles.containing(point, model: model, into: &results)
    }
}
