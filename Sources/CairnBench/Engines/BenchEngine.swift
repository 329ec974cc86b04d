import CairnCore

/// One engine the bench runs: built once over the dataset's points (and once over its circles), then asked
/// every query of the workload. Every answer must be exact: the same items every other engine returns.
///
/// Queries append to a caller's buffer (emptied by the caller, capacity kept) so the timed part allocates
/// nothing an engine does not allocate by itself.
public protocol BenchEngine: AnyObject {
    /// The engine's name in the report: `cairn`, `sqlite-rtree`, `geos-strtree`.
    var name: String { get }
    /// What the engine is, with its library's version: `SQLite 3.40.1 R*Tree`.
    var summary: String { get }
    /// Bytes the engine's own accounting says it holds, when it has such accounting (the runner reports
    /// the growth across `build`).
    var reportedMemoryBytes: Int? { get }

    /// Indexes `points` (item `i` is `points[i]`); timed as the `build` operation.
    /// - Complexity: the engine's build, typically O(n log n).
    func build(points: [Coordinate]) throws
    /// Indexes `circles` (item `i` is `circles[i]`) for containment queries under `model`; not timed.
    /// Returns false when the engine has no containment index, and the containment operation skips it.
    /// - Complexity: the engine's build, typically O(n log n).
    func buildCircles(_ circles: [BenchCircle], model: DistanceModel) throws -> Bool

    /// Appends the items inside `box` (edges inclusive, wrap-around when west > east), in any order.
    /// - Complexity: the engine's box query, typically O(log n + k) for k results.
    func search(in box: BoundingBox, into results: inout [Int])
    /// Appends the items within `radiusMeters` of `center` (inclusive), in any order.
    /// - Complexity: the engine's radius query, typically O(log n + k) for k results.
    func within(radiusMeters: Double, of center: Coordinate, model: DistanceModel, into results: inout [Int])
    /// Appends the `count` items nearest to `point`, nearest first, ties by item index.
    /// - Complexity: the engine's nearest query, typically O(log n + count log count).
    func nearest(to point: Coordinate, count: Int, model: DistanceModel, into results: inout [Neighbor])
    /// Appends the circles containing `point` (distance from the circle's centre to the point at most its
    /// radius), in any order.
    /// - Complexity: the engine's containment query, typically O(log n + k) for k results.
    func containing(_ point: Coordinate, model: DistanceModel, into results: inout [Int])
}
