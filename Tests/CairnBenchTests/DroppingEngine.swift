import CairnCore
@testable import CairnBench

/// Cairn with two deliberate bugs: box queries drop one result, nearest queries replace the farthest
/// neighbour with a farther one (on every query).
final class DroppingEngine: BenchEngine {
    let name = "dropping"
    let summary = "a wrong engine"
    private let inner = CairnEngine()
    var reportedMemoryBytes: Int? { nil }

    func build(points: [Coordinate]) throws { inner.build(points: points) }
    func buildCircles(_ circles: [BenchCircle], model: DistanceModel) throws -> Bool { false }

    func search(in box: BoundingBox, into results: inout [Int]) {
        inner.search(in: box, into: &results)
        if !results.isEmpty { results.removeLast() }
    }

    func within(radiusMeters: Double, of center: Coordinate, model: DistanceModel, into results: inout [Int]) {
        inner.within(radiusMeters: radiusMeters, of: center, model: model, into: &results)
    }

    func nearest(to point: Coordinate, count: Int, model: DistanceModel, into results: inout [Neighbor]) {
        inner.nearest(to: point, count: count, model: model, into: &results)
        if let last = results.popLast() { results.append(Neighbor(item: last.item, distanceMeters: last.distanceMeters + 1)) }
    }

    func containing(_ point: Coordinate, model: DistanceModel, into results: inout [Int]) {}
}
