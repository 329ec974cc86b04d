#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The two reduced latitudes of an inverse problem on the auxiliary sphere, in canonical order
/// (β₁ ≤ -0, β₁ ≤ β₂ ≤ -β₁), with dn = √(1 + e′² sin² β) at each.
struct GeodesicEndpoints {
    var sbet1: Double, cbet1: Double, dn1: Double
    var sbet2: Double, cbet2: Double, dn2: Double
}

/// What one trial azimuth α₁ gives on the auxiliary sphere: the arc to the second latitude, the azimuth
/// there, the series variable and the longitude λ₁₂ reached (Karney 2013, §4, eqs. 5–11 and 38–39).
struct GeodesicTrial {
    var salp2 = 0.0, calp2 = 0.0
    var sig12 = 0.0
    var ssig1 = 0.0, csig1 = 0.0, ssig2 = 0.0, csig2 = 0.0
    var eps = 0.0
    /// λ₁₂(α₁) - the wanted λ₁₂, radians: the function whose root Newton's method seeks.
    var mismatch = 0.0
    /// d(mismatch)/dα₁ (eq. 46), once `slope(_:_:)` has set it.
    var slope = 0.0
}

extension GeodesicSolver {
    /// Follows the geodesic leaving β₁ with azimuth α₁ (given by its sine and cosine) to the latitude β₂ and
    /// returns where it gets, compared with the target longitude difference (its sine and cosine).
    /// - Complexity: O(1).
    @inline(__always)
    func trial(_ p: GeodesicEndpoints, salp1: Double, calp1: Double,
               slam12: Double, clam12: Double) -> GeodesicTrial {
        var t = GeodesicTrial()
        // An equatorial start heading north has been handled; nudge it off the degenerate line.
        let calp1 = p.sbet1 == 0 && calp1 == 0 ? -Self.tiny : calp1

        // Clairaut: sin α₀ = sin α₁ cos β₁.
        let salp0 = salp1 * p.cbet1
        let calp0 = hypot(calp1, salp1 * p.sbet1)

        // tan β₁ = tan σ₁ cos α₁; tan ω₁ = sin α₀ tan σ₁ (ω needs no normalising).
        t.ssig1 = p.sbet1
        let somg1 = salp0 * p.sbet1
        t.csig1 = calp1 * p.cbet1
        let comg1 = t.csig1
        GeodesicAngles.normalize(&t.ssig1, &t.csig1)

        // At |β₂| = -β₁ keep the symmetry exact: the Newton iteration is singular there otherwise.
        t.salp2 = p.cbet2 != p.cbet1 ? salp0 / p.cbet2 : salp1
        if p.cbet2 != p.cbet1 || abs(p.sbet2) != -p.sbet1 {
            // cos α₂ = √(cos² α₁ cos² β₁ + (cos² β₂ - cos² β₁)) / cos β₂, the difference taken in its
            // better-conditioned form.
            let gap = p.cbet1 < -p.sbet1
                ? (p.cbet2 - p.cbet1) * (p.cbet1 + p.cbet2)
                : (p.sbet1 - p.sbet2) * (p.sbet1 + p.sbet2)
            let x = calp1 * p.cbet1
            t.calp2 = (x * x + gap).squareRoot() / p.cbet2
        } else {
            t.calp2 = abs(calp1)
        }
        t.ssig2 = p.sbet2
        let somg2 = salp0 * p.sbet2
        t.csig2 = t.calp2 * p.cbet2
        let comg2 = t.csig2
        GeodesicAngles.normalize(&t.ssig2, &t.csig2)

        // σ₁₂ and ω₁₂, each in [0, π].
        t.sig12 = atan2(fmax(0, t.csig1 * t.ssig2 - t.ssig1 * t.csig2) + 0,
                        t.csig1 * t.csig2 + t.ssig1 * t.ssig2)
        let somg12 = fmax(0, comg1 * somg2 - somg1 * comg2) + 0
        let comg12 = comg1 * comg2 + somg1 * somg2
        // η = ω₁₂ - λ₁₂ (target), as one angle.
        let eta = atan2(somg12 * clam12 - comg12 * slam12, comg12 * clam12 + somg12 * slam12)
        let k2 = calp0 * calp0 * ep2
        t.eps = Self.seriesVariable(k2)
        let c3 = longitudeSeries(t.eps)
        let b312 = c3.sum(sin: t.ssig2, cos: t.csig2) - c3.sum(sin: t.ssig1, cos: t.csig1)
        // λ₁₂ = ω₁₂ - f A₃ sin α₀ (σ₁₂ + I₃ terms) (eq. 8).
        let domg12 = -f * longitudeScale(t.eps) * salp0 * (t.sig12 + b312)
        t.mismatch = eta + domg12

        return t
    }

    /// d(mismatch)/dα₁ of a trial (eq. 46), for Newton's step.
    /// - Complexity: O(1).
    @inline(__always)
    func slope(_ t: GeodesicTrial, _ p: GeodesicEndpoints) -> Double {
        if t.calp2 == 0 { return -2 * f1 * p.dn1 / p.sbet1 }
        let m12b = reducedLength(eps: t.eps, sig12: t.sig12, p,
                                 ssig1: t.ssig1, csig1: t.csig1, ssig2: t.ssig2, csig2: t.csig2)
        return m12b * (f1 / (t.calp2 * p.cbet2))
    }

    /// The reduced length m₁₂ / b of the arc σ₁ → σ₂ (eq. 38), for Newton's slope.
    /// - Complexity: O(1).
    @inline(__always)
    func reducedLength(eps: Double, sig12: Double, _ p: GeodesicEndpoints,
                       ssig1: Double, csig1: Double, ssig2: Double, csig2: Double) -> Double {
        let (a1, c1, a2, c2, m0) = Self.lengthSeries(eps)
        // One series for A₁ I₁ - A₂ I₂ (eq. 40).
        var j = GeodesicSineSeries()
        j.c1 = a1 * c1.c1 - a2 * c2.c1
        j.c2 = a1 * c1.c2 - a2 * c2.c2
        j.c3 = a1 * c1.c3 - a2 * c2.c3
        j.c4 = a1 * c1.c4 - a2 * c2.c4
        j.c5 = a1 * c1.c5 - a2 * c2.c5
        j.c6 = a1 * c1.c6 - a2 * c2.c6
        let j12 = m0 * sig12 + (j.sum(sin: ssig2, cos: csig2) - j.sum(sin: ssig1, cos: csig1))
        return Self.reducedLength(j12: j12, p, ssig1: ssig1, csig1: csig1, ssig2: ssig2, csig2: csig2)
    }

    /// The distance s₁₂ / b (eq. 7) and the reduced length m₁₂ / b (eq. 38) of the arc σ₁ → σ₂.
    /// - Complexity: O(1).
    func distanceAndReducedLength(eps: Double, sig12: Double, _ p: GeodesicEndpoints,
                                  ssig1: Double, csig1: Double, ssig2: Double, csig2: Double)
        -> (s12b: Double, m12b: Double) {
        let (a1, c1, a2, c2, m0) = Self.lengthSeries(eps)
        let b1 = c1.sum(sin: ssig2, cos: csig2) - c1.sum(sin: ssig1, cos: csig1)
        let b2 = c2.sum(sin: ssig2, cos: csig2) - c2.sum(sin: ssig1, cos: csig1)
        let j12 = m0 * sig12 + (a1 * b1 - a2 * b2)
        return (a1 * (sig12 + b1),
                Self.reducedLength(j12: j12, p, ssig1: ssig1, csig1: csig1, ssig2: ssig2, csig2: csig2))
    }

    /// The distance s₁₂ / b alone (eq. 7).
    /// - Complexity: O(1).
    @inline(__always)
    func distance(eps: Double, sig12: Double, ssig1: Double, csig1: Double, ssig2: Double, csig2: Double) -> Double {
        let a1 = 1 + GeodesicSeries.distanceScaleMinusOne(eps)
        let c1 = GeodesicSeries.distanceSeries(eps)
        return a1 * (sig12 + (c1.sum(sin: ssig2, cos: csig2) - c1.sum(sin: ssig1, cos: csig1)))
    }

    /// A₁ and C₁ₗ, A₂ and C₂ₗ, and m₀ = A₁ - A₂ (the secular term of J₁₂) at ε.
    @inline(__always)
    private static func lengthSeries(_ eps: Double)
        -> (a1: Double, c1: GeodesicSineSeries, a2: Double, c2: GeodesicSineSeries, m0: Double) {
        let a1m1 = GeodesicSeries.distanceScaleMinusOne(eps)
        let a2m1 = GeodesicSeries.reducedLengthScaleMinusOne(eps)
        return (1 + a1m1, GeodesicSeries.distanceSeries(eps), 1 + a2m1, GeodesicSeries.reducedLengthSeries(eps),
                a1m1 - a2m1)
    }

    /// m₁₂ / b from J₁₂; the products are grouped so that coincident points cancel exactly.
    @inline(__always)
    private static func reducedLength(j12: Double, _ p: GeodesicEndpoints,
                                      ssig1: Double, csig1: Double, ssig2: Double, csig2: Double) -> Double {
        p.dn2 * (csig1 * ssig2) - p.dn1 * (ssig1 * csig2) - csig1 * csig2 * j12
    }
}
