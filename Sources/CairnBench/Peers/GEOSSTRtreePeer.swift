import CairnCore
import CairnGEOS

/// GEOS's STRtree (Sort-Tile-Recursive packed R-tree) as a peer, through CairnGEOS (the reentrant C API with
/// its own context): one tree of the points and one of the circles' bounding rectangles, items numbered as
/// the inputs. Exactness comes from `PeerQueries`' re-check (GEOS compares doubles, so its candidates are
/// exactly the rectangle's).
final class GEOSSTRtreePeer: BenchEngine {
    let name = BenchEngineName.geosSTRtree.rawValue
    let summary = "GEOS \(GEOSContext.version) STRtree, node capacity 10, reentrant C API"
    private let context: GEOSContext
    private var pointTree: GEOSSTRtree?
    private var circleTree: GEOSSTRtree?
    private var queries = PeerQueries(points: [])

    var reportedMemoryBytes: Int? { nil }

    /// Starts a GEOS context.
    /// - Throws: `BenchError` when GEOS cannot start one.
    /// - Complexity: O(1).
    init() throws {
        do {
            context = try GEOSContext()
        } catch {
            throw BenchError.engine(name, "\(error)")
        }
    }

    func build(points: [Coordinate]) throws {
        queries = PeerQueries(points: points)
        do {
            let tree = try GEOSSTRtree(context: context)
            for (item, point) in points.enumerated() {
                try tree.insert(x: point.longitude, y: point.latitude, item: item)
            }
            try tree.build()
            pointTree = tree
        } catch {
            throw BenchError.engine(name, "\(error)")
        }
    }

    func buildCircles(_ circles: [BenchCircle], model: DistanceModel) throws -> Bool {
        queries.circles = ContiguousArray(circles)
        do {
            let tree = try GEOSSTRtree(context: context)
            for (item, circle) in circles.enumerated() {
                // Across the antimeridian a circle has two disjoint rectangles, both under its item.
                try BenchRect.covering(circleAround: circle.center, radiusMeters: circle.radiusMeters, model: model).forEach { rect in
                    try tree.insert(rect.envelope, item: item)
                }
            }
            try tree.build()
            circleTree = tree
        } catch {
            throw BenchError.engine(name, "\(error)")
        }
        return true
    }

    func search(in box: BoundingBox, into results: inout [Int]) {
        guard let pointTree else { return }
        queries.search(in: box, index: pointTree, into: &results)
    }

    func within(radiusMeters: Double, of center: Coordinate, model: DistanceModel, into results: inout [Int]) {
        guard let pointTree else { return }
        queries.within(radiusMeters: radiusMeters, of: center, model: model, index: pointTree, into: &results)
    }

    func nearest(to point: Coordinate, count: Int, model: DistanceModel, into results: inout [Neighbor]) {
        guard let pointTree else { return }
        queries.nearest(to: point, count: count, model: model, index: pointTree, into: &results)
    }

    func containing(_ point: Coordinate, model: DistanceModel, into results: inout [Int]) {
        guard let circleTree else { return }
        queries.containing(point, model: model, index: circleTree, into: &results)
    }
}
