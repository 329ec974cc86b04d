import CairnGEOS

extension BenchRect {
    /// The rectangle as GEOS's envelope: x is longitude, y latitude.
    /// - Complexity: O(1).
    @inline(__always)
    var envelope: Envelope { Envelope(minX: west, minY: south, maxX: east, maxY: north) }
}
