/// The series in ε of the distance and reduced-length integrals of a geodesic, to order ε⁶ (enough for
/// doubles on an ellipsoid of Earth's flattening).
///
/// Method: Karney, "Algorithms for geodesics", J. Geodesy 87:43–55 (2013), eqs. (17)–(21) and (41)–(43), with
/// the normalisations of GeographicLib 2 (A₁ with (1 - ε), A₂ with (1 + ε)). Here ε = k² / (√(1 + k²) + 1)²
/// with k = e′ cos α₀, so ε ≤ 0.0017 on WGS84 and the truncation error is below 10⁻¹⁸ relative.
/// Each coefficient is a polynomial in ε² with integer numerators, evaluated by Horner's rule, multiplied by
/// its power of ε and then divided by its integer denominator (the order the reference implementations use,
/// so that results agree with them to the bit).
enum GeodesicSeries {
    /// A₁ - 1, the scale of the distance integral I₁ (eq. 17): A₁ = (1 + ε²/4 + ε⁴/64 + ε⁶/256) / (1 - ε).
    /// - Complexity: O(1).
    @inline(__always)
    static func distanceScaleMinusOne(_ eps: Double) -> Double {
        let e2 = eps * eps
        let t = ((e2 + 4) * e2 + 64) * e2 / 256
        return (t + eps) / (1 - eps)
    }

    /// C₁ₗ, l = 1…6: the distance integral's sine series σ → τ = σ + Σ C₁ₗ sin 2lσ (eq. 18).
    /// - Complexity: O(1).
    @inline(__always)
    static func distanceSeries(_ eps: Double) -> GeodesicSineSeries {
        let e2 = eps * eps
        var d = eps
        var c = GeodesicSineSeries()
        c.c1 = d * ((-e2 + 6) * e2 - 16) / 32
        d *= eps
        c.c2 = d * ((-9 * e2 + 64) * e2 - 128) / 2048
        d *= eps
        c.c3 = d * (9 * e2 - 16) / 768
        d *= eps
        c.c4 = d * (3 * e2 - 5) / 512
        d *= eps
        c.c5 = d * -7 / 1280
        d *= eps
        c.c6 = d * -7 / 2048
        return c
    }

    /// C′₁ₗ, l = 1…6: the reverted series τ → σ = τ + Σ C′₁ₗ sin 2lτ (eq. 21), for the direct problem.
    /// - Complexity: O(1).
    @inline(__always)
    static func distanceSeriesReverted(_ eps: Double) -> GeodesicSineSeries {
        let e2 = eps * eps
        var d = eps
        var c = GeodesicSineSeries()
        c.c1 = d * ((205 * e2 - 432) * e2 + 768) / 1536
        d *= eps
        c.c2 = d * ((4005 * e2 - 4736) * e2 + 3840) / 12288
        d *= eps
        c.c3 = d * (-225 * e2 + 116) / 384
        d *= eps
        c.c4 = d * (-7173 * e2 + 2695) / 7680
        d *= eps
        c.c5 = d * 3467 / 7680
        d *= eps
        c.c6 = d * 38081 / 61440
        return c
    }

    /// A₂ - 1, the scale of the reduced-length integral I₂ (eq. 42):
    /// A₂ = (1 - 3ε²/4 - 7ε⁴/64 - 11ε⁶/256) / (1 + ε).
    /// - Complexity: O(1).
    @inline(__always)
    static func reducedLengthScaleMinusOne(_ eps: Double) -> Double {
        let e2 = eps * eps
        let t = ((-11 * e2 - 28) * e2 - 192) * e2 / 256
        return (t - eps) / (1 + eps)
    }

    /// C₂ₗ, l = 1…6: the reduced-length integral's sine series (eq. 43).
    /// - Complexity: O(1).
    @inline(__always)
    static func reducedLengthSeries(_ eps: Double) -> GeodesicSineSeries {
        let e2 = eps * eps
        var d = eps
        var c = GeodesicSineSeries()
        c.c1 = d * ((e2 + 2) * e2 + 16) / 32
        d *= eps
        c.c2 = d * ((35 * e2 + 64) * e2 + 384) / 2048
        d *= eps
        c.c3 = d * (15 * e2 + 80) / 768
        d *= eps
        c.c4 = d * (7 * e2 + 35) / 512
        d *= eps
        c.c5 = d * 63 / 1280
        d *= eps
        c.c6 = d * 77 / 2048
        return c
    }
}
