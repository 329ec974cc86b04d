/// The one rounding of a printed check-in distance: whole millimetres, rounded up, never below the distance
/// (so a printed `outside_radius` distance is never at or below the radius). The check-in output prints it;
/// the validator uses it to know when a bound pins the printed value down without the exact distance.
package enum CheckInMillimetres {
    /// `meters` in whole millimetres rounded up (never below `meters`); nil when negative, NaN or too large.
    ///
    /// Monotone: a ≤ b gives ceiling(a) ≤ ceiling(b) (the rounded product and the correction both are), so
    /// two distances with one ceiling pin down the ceiling of any distance between them.
    /// - Complexity: O(1).
    @inline(__always)
    package static func ceiling(_ meters: Double) -> UInt64? {
        let millimetres = (meters * 1000).rounded(.up)
        guard millimetres.isFinite, millimetres >= 0, millimetres < 9e18 else { return nil }
        let whole = UInt64(millimetres)
        // Rounding the product may land a hair below the exact value's ceiling; never print less than `meters`.
        return Double(whole) / 1000 < meters ? whole + 1 : whole
    }
}
