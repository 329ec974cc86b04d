/// A set of longitudes as at most two disjoint closed ranges, with 180 and -180 treated as one meridian.
///
/// A range touching one side of the antimeridian also gets the single-meridian range on the other side, so
/// a coordinate stored as -180 matches a box ending at 180; an empty second range has `lower > upper`.
struct LongitudeRanges {
    var first: ClosedRange<Double>
    var second: (lower: Double, upper: Double)

    /// Ranges for the region from `west` eastwards to `east` (wrapping when west > east).
    init(west: Double, east: Double) {
        if west > east {
            first = west...180
            second = (-180, east)
        } else {
            first = west...east
            if west == -180, east < 180 {
                second = (180, 180)
            } else if east == 180, west > -180 {
                second = (-180, -180)
            } else {
                second = (1, 0)
            }
        }
    }

    /// All longitudes.
    static let all = LongitudeRanges(west: -180, east: 180)

    /// Whether the second range is non-empty.
    var hasSecond: Bool { second.lower <= second.upper }

    @inline(__always)
    func contains(_ longitude: Double) -> Bool {
        first.contains(longitude) || (longitude >= second.lower && longitude <= second.upper)
    }
}
