extension ShapeBoundaryDistance {
    /// The nearest point of a shape's boundary to a given point, and the geodesic distance to it.
    public struct Nearest: Hashable, Sendable {
        /// The WGS84 geodesic distance, metres.
        public let meters: Double
        /// The boundary's point at that distance (a vertex, or a point of an edge straight in lon/lat).
        public let point: Coordinate

        /// A distance and the point it reaches.
        /// - Complexity: O(1).
        public init(meters: Double, point: Coordinate) {
            self.meters = meters
            self.point = point
        }
    }
}
