/// The coefficients c₁…c₆ of a sine series Σ cₗ sin 2lσ (c₆ = 0 for the five-term series of the longitude
/// integral, which then sums to the same bits as a five-term sum).
///
/// Method: Clenshaw summation, as Karney, "Algorithms for geodesics", J. Geodesy 87:43–55 (2013), eq. (59),
/// prescribes: one recurrence in cos 2σ, no sine of a multiple angle. Accuracy: a few ulps of the largest term.
struct GeodesicSineSeries {
    var c1 = 0.0, c2 = 0.0, c3 = 0.0, c4 = 0.0, c5 = 0.0, c6 = 0.0

    /// Σ cₗ sin 2lσ for the angle σ given by its sine and cosine.
    /// - Complexity: O(1), six steps of the recurrence.
    @inline(__always)
    func sum(sin sinSigma: Double, cos cosSigma: Double) -> Double {
        let twoCos2Sigma = 2 * (cosSigma - sinSigma) * (cosSigma + sinSigma)
        // b_l = 2 cos 2σ b_{l+1} - b_{l+2} + c_l, from l = 6 down to 1; the two accumulators swap roles.
        var b0 = 0.0, b1 = 0.0
        b1 = twoCos2Sigma * b0 - b1 + c6
        b0 = twoCos2Sigma * b1 - b0 + c5
        b1 = twoCos2Sigma * b0 - b1 + c4
        b0 = twoCos2Sigma * b1 - b0 + c3
        b1 = twoCos2Sigma * b0 - b1 + c2
        b0 = twoCos2Sigma * b1 - b0 + c1
        return 2 * sinSigma * cosSigma * b0
    }
}
