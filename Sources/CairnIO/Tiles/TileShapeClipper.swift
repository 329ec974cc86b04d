/// Cuts lines and polygon rings, given in tile units as doubles, to a square (the tile plus its buffer), then
/// rounds them to tile units. Cairn's own: Sutherland–Hodgman per ring (a convex clip window keeps every ring one
/// ring, closed; where a concave ring leaves and re-enters, the pieces are joined along the window's edge, which
/// renders as the polygon does, since that edge lies in the buffer, outside the tile), and Liang–Barsky per
/// segment for lines (a line that leaves and re-enters becomes several parts).
enum TileShapeClipper {
    /// A position in tile units before rounding.
    typealias Position = (x: Double, y: Double)

    /// `ring` (first vertex repeated last or not) cut to `low...high` on both axes: the vertices of the clipped
    /// ring, not closed; fewer than three when nothing of it is inside.
    /// - Complexity: O(n) per window edge.
    static func clipRing(_ ring: [Position], low: Double, high: Double) -> [Position] {
        var current = ring
        if let first = current.first, let last = current.last, current.count > 1, first == last { current.removeLast() }
        // Each edge of the window in turn: its axis (0 is x) and whether inside is above the bound.
        for (axis, bound, keepsAbove) in [(0, low, true), (0, high, false), (1, low, true), (1, high, false)] {
            guard !current.isEmpty else { break }
            func inside(_ p: Position) -> Bool {
                let v = axis == 0 ? p.x : p.y
                return keepsAbove ? v >= bound : v <= bound
            }
            var out: [Position] = []
            out.reserveCapacity(current.count + 4)
            var previous = current[current.count - 1]
            var previousInside = inside(previous)
            for p in current {
                let pInside = inside(p)
                if pInside != previousInside { out.append(crossing(previous, p, axis: axis, at: bound)) }
                if pInside { out.append(p) }
                previous = p
                previousInside = pInside
            }
            current = out
        }
        return current
    }

    /// `line` cut to `low...high` on both axes: the parts inside, each at least two vertices (before rounding).
    /// - Complexity: O(n).
    static func clipLine(_ line: [Position], low: Double, high: Double) -> [[Position]] {
        var parts: [[Position]] = []
        var part: [Position] = []
        for i in line.indices.dropFirst() {
            guard let (a, b) = clipSegment(line[i - 1], line[i], low: low, high: high) else { continue }
            // The segment continues the part when it starts where the part ends (it entered unclipped).
            if let end = part.last, end == a {
                part.append(b)
            } else {
                if part.count >= 2 { parts.append(part) }
                part = [a, b]
            }
        }
        if part.count >= 2 { parts.append(part) }
        return parts
    }

    /// The part of segment a–b inside the window (Liang–Barsky), or nil. An end inside is returned as it is, so
    /// consecutive segments join exactly.
    static func clipSegment(_ a: Position, _ b: Position, low: Double, high: Double) -> (Position, Position)? {
        let dx = b.x - a.x, dy = b.y - a.y
        var t0 = 0.0, t1 = 1.0
        for (p, q) in [(-dx, a.x - low), (dx, high - a.x), (-dy, a.y - low), (dy, high - a.y)] {
            if p == 0 {
                if q < 0 { return nil } // parallel to this edge and outside it
                continue
            }
            let r = q / p
            if p < 0 {
                if r > t1 { return nil }
                if r > t0 { t0 = r }
            } else {
                if r < t0 { return nil }
                if r < t1 { t1 = r }
            }
        }
        let start = t0 == 0 ? a : (x: a.x + t0 * dx, y: a.y + t0 * dy)
        let end = t1 == 1 ? b : (x: a.x + t1 * dx, y: a.y + t1 * dy)
        return (start, end)
    }

    /// Whether a clipped ring is the whole window: every vertex on its edge, each of its four corners among them,
    /// and its area the window's. Vertices on the edge alone do not say it: a hole's edge may cross the window from
    /// one side to the other (a strip of land through a lake) and leave only edge vertices and all four corners,
    /// enclosing less than the window. The clipper writes crossings on an edge exactly at `low` or `high`.
    /// - Complexity: O(n).
    static func isWindow(_ ring: [Position], low: Double, high: Double) -> Bool {
        var corners = 0 // one bit per corner: bit 0 x low, bit 1 y low
        var twiceArea = 0.0
        for (index, p) in ring.enumerated() {
            let xEdge = p.x == low || p.x == high, yEdge = p.y == low || p.y == high
            guard xEdge || yEdge else { return false }
            if xEdge, yEdge { corners |= 1 << ((p.x == low ? 0 : 1) + (p.y == low ? 0 : 2)) }
            let next = ring[(index + 1) % ring.count]
            twiceArea += p.x * next.y - next.x * p.y
        }
        let windowArea = (high - low) * (high - low)
        // Vertices on the window's edges make the area exact but for rounding in the products.
        return corners == 0b1111 && abs(abs(twiceArea) / 2 - windowArea) <= windowArea * 1e-9
    }

    /// Where segment a–b crosses the line `axis == bound` (the coordinate on that axis set exactly to `bound`).
    static func crossing(_ a: Position, _ b: Position, axis: Int, at bound: Double) -> Position {
        if axis == 0 {
            let t = (bound - a.x) / (b.x - a.x)
            return (x: bound, y: a.y + t * (b.y - a.y))
        }
        let t = (bound - a.y) / (b.y - a.y)
        return (x: a.x + t * (b.x - a.x), y: bound)
    }

    /// A position rounded to the nearest tile unit, halves up, with no second rounding (`v + 0.5` could round
    /// before the floor): a position one tile over, exactly `extent` less, rounds to exactly `extent` less.
    /// - Complexity: O(1).
    static func rounded(_ v: Double) -> Int {
        let down = v.rounded(.down)
        return Int(v - down >= 0.5 ? down + 1 : down)
    }

    /// `p` rounded to tile units.
    static func quantised(_ p: Position) -> VectorTilePoint {
        VectorTilePoint(x: rounded(p.x), y: rounded(p.y))
    }
}
