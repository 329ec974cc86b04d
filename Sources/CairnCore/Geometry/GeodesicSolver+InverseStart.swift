#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The inverse problem's first guess for α₁; for short lines also the answer (σ₁₂ ≥ 0, α₂ and the mean dn).
struct GeodesicStart {
    var salp1: Double, calp1: Double
    /// σ₁₂ when no iteration is needed, else -1.
    var sig12 = -1.0
    var salp2 = 0.0, calp2 = 0.0
    /// √(1 + e′² sin² β_mean) for short lines.
    var dnm = 0.0
}

extension GeodesicSolver {
    /// The starting azimuth for Newton's method (Karney 2013, §5): the great-circle azimuth on the auxiliary
    /// sphere with ω₁₂ = λ₁₂ / (1 - f) dn_mean for short lines (exact enough to stop there when σ₁₂ < etol2),
    /// or from the astroid equation (eq. 55) when the points are nearly antipodal, where the spherical
    /// guess falls on the wrong side of the root.
    /// - Complexity: O(1).
    func start(_ p: GeodesicEndpoints, lam12: Double, slam12: Double, clam12: Double) -> GeodesicStart {
        let sbet1 = p.sbet1, cbet1 = p.cbet1, sbet2 = p.sbet2, cbet2 = p.cbet2
        var guess = GeodesicStart(salp1: 0, calp1: 0)
        // β₁₂ = β₂ - β₁ in [0, π); β₁₂a = β₂ + β₁ in (-π, 0].
        let sbet12 = sbet2 * cbet1 - cbet2 * sbet1
        let cbet12 = cbet2 * cbet1 + sbet2 * sbet1
        let shortLine = cbet12 >= 0 && sbet12 < 0.5 && cbet2 * lam12 < 0.5
        let sbet12a = sbet2 * cbet1 + cbet2 * sbet1
        var somg12: Double, comg12: Double
        if shortLine {
            // sin² of the mean reduced latitude.
            var sbetm2 = (sbet1 + sbet2) * (sbet1 + sbet2)
            sbetm2 /= sbetm2 + (cbet1 + cbet2) * (cbet1 + cbet2)
            guess.dnm = (1 + ep2 * sbetm2).squareRoot()
            let omg12 = lam12 / (f1 * guess.dnm)
            somg12 = sin(omg12)
            comg12 = cos(omg12)
        } else {
            somg12 = slam12
            comg12 = clam12
        }

        var salp1 = cbet2 * somg12
        var calp1 = comg12 >= 0
            ? sbet12 + cbet2 * sbet1 * (somg12 * somg12) / (1 + comg12)
            : sbet12a - cbet2 * sbet1 * (somg12 * somg12) / (1 - comg12)
        let ssig12 = hypot(salp1, calp1)
        let csig12 = sbet1 * sbet2 + cbet1 * cbet2 * comg12

        if shortLine && ssig12 < etol2 {
            // Really short: the spherical solution with the mean dn is the answer.
            guess.salp2 = cbet1 * somg12
            guess.calp2 = sbet12 - cbet1 * sbet2 * (comg12 >= 0 ? (somg12 * somg12) / (1 + comg12) : 1 - comg12)
            GeodesicAngles.normalize(&guess.salp2, &guess.calp2)
            guess.sig12 = atan2(ssig12, csig12)
        } else if abs(n) > 0.1 || csig12 >= 0 || ssig12 >= 6 * abs(n) * Double.pi * (cbet1 * cbet1) {
            // Not nearly antipodal: the spherical guess is good.
        } else {
            // Nearly antipodal (f > 0 here): scale to coordinates where the antipode is the origin and the
            // singular point is (x, y) = (-1, 0).
            let lam12x = atan2(-slam12, -clam12)   // λ₁₂ - π
            let k2 = sbet1 * sbet1 * ep2
            let eps = Self.seriesVariable(k2)
            let lamscale = f * cbet1 * longitudeScale(eps) * Double.pi
            let betscale = lamscale * cbet1
            let x = lam12x / lamscale
            let y = sbet12a / betscale
            if y > -Self.tol1 && x > -1 - Self.xthresh {
                // On the strip near the cut: the meridional-like limit.
                salp1 = min(1, -x)
                calp1 = -(1 - salp1 * salp1).squareRoot()
            } else {
                // Solve the astroid for k, estimate ω₁₂ from it (fewer Newton steps than α₁ directly).
                let k = Self.astroid(x, y)
                let omg12a = lamscale * (-x * k / (1 + k))
                somg12 = sin(omg12a)
                comg12 = -cos(omg12a)
                salp1 = cbet2 * somg12
                calp1 = sbet12a - cbet2 * sbet1 * (somg12 * somg12) / (1 - comg12)
            }
        }
        // A guess outside (0, π) falls back to due east; the reversed test lets NaN through.
        if !(salp1 <= 0) {
            GeodesicAngles.normalize(&salp1, &calp1)
        } else {
            salp1 = 1
            calp1 = 0
        }
        guess.salp1 = salp1
        guess.calp1 = calp1
        return guess
    }

    /// The positive root k of k⁴ + 2k³ - (x² + y² - 1)k² - 2y²k - y² = 0 (Karney 2013, eq. 55), by the
    /// closed-form quartic solution arranged against cancellation; 0 when y = 0 and |x| ≤ 1.
    /// - Complexity: O(1).
    static func astroid(_ x: Double, _ y: Double) -> Double {
        let p = x * x, q = y * y
        let r = (p + q - 1) / 6
        if q == 0 && r <= 0 { return 0 }
        // s and t of the resolvent, multiplied by r³ and r so that r = 0 divides nothing.
        let s = p * q / 4
        let r2 = r * r, r3 = r * r2
        // Zero on the evolute p^(1/3) + q^(1/3) = 1.
        let disc = s * (s + 2 * r3)
        var u = r
        if disc >= 0 {
            var t3 = s + r3
            // The sign of the root that maximises |T³| avoids cancellation; u does not depend on it.
            t3 += t3 < 0 ? -disc.squareRoot() : disc.squareRoot()
            let t = cbrt(t3)
            u += t + (t != 0 ? r2 / t : 0)
        } else {
            // Complex T, real u: the cube root that avoids cancellation (disc < 0 implies r < 0).
            let angle = atan2((-disc).squareRoot(), -(s + r3))
            u += 2 * r * cos(angle / 3)
        }
        let v = (u * u + q).squareRoot()
        let uv = u < 0 ? q / (v - u) : u + v
        let w = (uv - q) / (2 * v)
        return uv / ((uv + w * w).squareRoot() + w)
    }
}
