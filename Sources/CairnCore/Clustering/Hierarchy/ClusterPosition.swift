/// A point's Web Mercator position, x and y side by side (a point read at a scattered place costs one cache line).
struct ClusterPosition: Sendable, Equatable {
    var x: Double, y: Double
}
