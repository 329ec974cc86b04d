/// How far a cluster's points' exact projections may lie from its position: along x (the shorter way round the
/// antimeridian) and along y, in unit-square units. Each bound is held in 16 bits, the high half of a Float's bits
/// rounded up (8 bits of exponent, 7 of mantissa: at most 0.8 % above the value), so a bound stays a bound.
///
/// Grid clustering asks whether all of a cluster's points fall in one cell, and cell edges run along the axes:
/// two axis bounds answer that more often than one radius would (a pair of points side by side spans one axis only).
struct ClusterExtent: Sendable, Equatable {
    private var xBits: UInt16, yBits: UInt16

    /// Bounds at least `x` and `y` (finite, non-negative).
    /// - Complexity: O(1).
    init(x: Double, y: Double) {
        xBits = Self.bits(roundingUp: x)
        yBits = Self.bits(roundingUp: y)
    }

    /// No reach at all.
    static let zero = ClusterExtent(x: 0, y: 0)

    /// The bound along x.
    var x: Double { Double(Float(bitPattern: UInt32(xBits) << 16)) }

    /// The bound along y.
    var y: Double { Double(Float(bitPattern: UInt32(yBits) << 16)) }

    /// The 16 high bits of the smallest Float pattern that is at least `v`, rounded up to the next 16-bit value when
    /// the low half is not zero (for a positive Float, a larger pattern is a larger value).
    private static func bits(roundingUp v: Double) -> UInt16 {
        var f = Float(v)
        if Double(f) < v { f = f.nextUp }
        let pattern = f.bitPattern
        return UInt16(pattern >> 16) + (pattern & 0xFFFF == 0 ? 0 : 1)
    }

    /// The largest factor by which stored bounds exceed the values rounded: 1 + 2^-7.
    static let roundingFactor = 1 + 0x1p-7
}
