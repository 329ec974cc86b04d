/// The crossing-number test of one ring, on a flat longitude/latitude buffer.
enum ShapeRing {
    /// Where a point lies relative to one ring.
    enum Crossing {
        /// On an edge or a vertex.
        case boundary
        /// An odd number of edges cross the ray: inside the ring.
        case odd
        /// An even number: outside the ring.
        case even
    }

    /// The crossing test of the ring at `range` (positions, first to last; closed when its last position is not its
    /// first) against the point (x, y): a ray towards +x, each edge counted when its ends lie on opposite sides of
    /// y (one end `> y`, the other `<= y`) and the crossing lies right of x (by the exact orientation).
    /// - Complexity: O(k) for the ring's k positions.
    @inline(__always)
    static func crossing(_ positions: UnsafeBufferPointer<Double>, _ range: Range<Int>, x: Double, y: Double) -> Crossing {
        var odd = false
        let first = range.lowerBound, last = range.upperBound - 1
        var ax = positions[2 * last], ay = positions[2 * last + 1]
        // An unclosed ring is closed by the edge from its last position to its first; a closed one starts that edge
        // at its repeated first position, a zero-length edge that changes nothing.
        for position in first...last {
            let bx = positions[2 * position], by = positions[2 * position + 1]
            if edgeStep(ax, ay, bx, by, x: x, y: y, odd: &odd) { return .boundary }
            (ax, ay) = (bx, by)
        }
        return odd ? .odd : .even
    }

    /// One edge a → b of the crossing test at (x, y): toggles `odd` when the edge crosses the ray (its ends on
    /// opposite sides of y, the crossing right of x); returns true when the point lies on the edge. An edge whose
    /// latitude range does not hold y does nothing (`RingEdgeIndex` relies on it).
    /// - Complexity: O(1).
    @inline(__always)
    static func edgeStep(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, x: Double, y: Double, odd: inout Bool) -> Bool {
        let aAbove = ay > y, bAbove = by > y
        if aAbove != bAbove {
            // The edge spans y (not horizontal): entirely left of x it neither crosses nor touches; entirely
            // right, it crosses.
            if x > ax && x > bx { return false }
            if x < ax && x < bx {
                odd.toggle()
                return false
            }
            let side = PlanarOrientation.sign(ax, ay, bx, by, x, y)
            if side == 0 { return true }
            // Upward (b above): the crossing is right of the point when the point is left of a → b.
            if (side > 0) == bAbove { odd.toggle() }
        } else if !aAbove && (ay == y || by == y) {
            // Both ends at or below y: the point can only be on a horizontal edge at y or at an end at y.
            if ay == y && by == y {
                return x >= Swift.min(ax, bx) && x <= Swift.max(ax, bx)
            }
            return (ay == y && ax == x) || (by == y && bx == x)
        }
        return false
    }
}
