import Foundation

/// Entries that `GridClustering.place(_:)` adds, read by their position k in 0..<`count`.
protocol GridEntrySource {
    /// How many entries there are.
    var count: Int { get }
    /// Entry k's Web Mercator position (x in [0, 1)), how far its points may lie from it along each axis, and how
    /// many points it holds. Asked once per entry, in order.
    func entry(_ k: Int) -> (x: Double, y: Double, reachX: Double, reachY: Double, weight: Int)
    /// What entry k is listed as when it is added.
    func member(_ k: Int) -> ClusterNode.Content
    /// The coordinate of entry k when it is a point, to place it by the exact rule when it may fall in several
    /// cells; nil for a cluster (not placed now: opened).
    func exactCoordinate(_ k: Int) -> Coordinate?
}
