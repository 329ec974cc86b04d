/// Exact tests on straight segments in the plane of longitude and latitude, built on `PlanarOrientation`.
enum PlanarSegment {
    /// Whether segment a–b meets the box (edges inclusive, west ≤ east): their boxes overlap and the box's corners
    /// are not all strictly on one side of the segment's line (the separating axis test for a segment and a box).
    /// - Complexity: O(1).
    @inline(__always)
    static func meetsBox(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double,
                         west: Double, south: Double, east: Double, north: Double) -> Bool {
        guard Swift.max(ax, bx) >= west, Swift.min(ax, bx) <= east, Swift.max(ay, by) >= south, Swift.min(ay, by) <= north else {
            return false
        }
        if ax >= west && ax <= east && ay >= south && ay <= north { return true }
        let first = PlanarOrientation.sign(ax, ay, bx, by, west, south)
        if first == 0 { return true }
        return PlanarOrientation.sign(ax, ay, bx, by, east, south) != first
            || PlanarOrientation.sign(ax, ay, bx, by, east, north) != first
            || PlanarOrientation.sign(ax, ay, bx, by, west, north) != first
    }

    /// Whether segments a–b and c–d share a point (either may have length zero).
    /// - Complexity: O(1).
    @inline(__always)
    static func meet(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double,
                     _ cx: Double, _ cy: Double, _ dx: Double, _ dy: Double) -> Bool {
        guard Swift.max(ax, bx) >= Swift.min(cx, dx), Swift.min(ax, bx) <= Swift.max(cx, dx),
              Swift.max(ay, by) >= Swift.min(cy, dy), Swift.min(ay, by) <= Swift.max(cy, dy) else { return false }
        let o1 = PlanarOrientation.sign(ax, ay, bx, by, cx, cy), o2 = PlanarOrientation.sign(ax, ay, bx, by, dx, dy)
        let o3 = PlanarOrientation.sign(cx, cy, dx, dy, ax, ay), o4 = PlanarOrientation.sign(cx, cy, dx, dy, bx, by)
        if o1 * o2 < 0 && o3 * o4 < 0 { return true }
        // Touching or collinear: an end on the other segment (collinear and inside its box).
        if o1 == 0 && within(cx, cy, ax, ay, bx, by) { return true }
        if o2 == 0 && within(dx, dy, ax, ay, bx, by) { return true }
        if o3 == 0 && within(ax, ay, cx, cy, dx, dy) { return true }
        if o4 == 0 && within(bx, by, cx, cy, dx, dy) { return true }
        return false
    }

    /// Whether (x, y) lies in the box of segment p–q (for a point already collinear with it: on the segment).
    @inline(__always)
    static func within(_ x: Double, _ y: Double, _ px: Double, _ py: Double, _ qx: Double, _ qy: Double) -> Bool {
        x >= Swift.min(px, qx) && x <= Swift.max(px, qx) && y >= Swift.min(py, qy) && y <= Swift.max(py, qy)
    }
}
