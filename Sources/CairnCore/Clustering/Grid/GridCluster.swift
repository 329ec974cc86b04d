import Foundation

/// One group of a grid clustering.
public struct GridCluster: Hashable, Sendable {
    /// The weighted mean of its points in Web Mercator.
    public let coordinate: Coordinate
    /// Where it sits on screen, in pixels from the viewport's west edge.
    public let pixelX: Double
    /// Where it sits on screen, in pixels from the viewport's north edge.
    public let pixelY: Double
    /// Points held.
    public let pointCount: Int
    /// What it groups: input points (by input position), or hierarchy clusters each placed whole (by id).
    public let members: [ClusterNode.Content]
}
