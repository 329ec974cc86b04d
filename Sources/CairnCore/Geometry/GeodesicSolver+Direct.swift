#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension GeodesicSolver {
    /// The point reached from (lat1, lon1) going `s12` metres along the geodesic with initial azimuth `azi1`
    /// (degrees clockwise from north; negative distances go backwards): (latitude, longitude) in degrees,
    /// longitude in [-180, 180] (Karney 2013, §3: σ₁ from β₁ and α₁, τ₁₂ = s₁₂ / (b A₁), σ₁₂ by the reverted
    /// series C′₁, then β₂ and the longitude integral I₃).
    /// - Complexity: O(1), no iteration.
    func direct(_ lat1: Double, _ lon1: Double, azimuthDegrees azi1: Double, meters s12: Double) -> (Double, Double) {
        // Rounding a tiny azimuth keeps sin α₀ from underflowing.
        let (salp1, calp1) = GeodesicAngles.sinCos(GeodesicAngles.rounded(GeodesicAngles.normalized(azi1)))
        let phi1 = GeodesicAngles.checkedLatitude(lat1)

        var (sbet1, cbet1) = GeodesicAngles.sinCos(GeodesicAngles.rounded(phi1))
        sbet1 *= f1
        GeodesicAngles.normalize(&sbet1, &cbet1)
        cbet1 = fmax(Self.tiny, cbet1)

        // Clairaut: sin α₀ = sin α₁ cos β₁; cos α₀ as a hypot (better than from sin β₁ when sin α₁ = 0).
        let salp0 = salp1 * cbet1
        let calp0 = hypot(calp1, salp1 * sbet1)
        // σ₁ with tan β₁ = tan σ₁ cos α₁ (σ = 0 at the northward equator crossing); ω₁ with
        // tan ω₁ = sin α₀ tan σ₁ (no normalising needed).
        var ssig1 = sbet1
        let somg1 = salp0 * sbet1
        var csig1 = sbet1 != 0 || calp1 != 0 ? cbet1 * calp1 : 1
        let comg1 = csig1
        GeodesicAngles.normalize(&ssig1, &csig1)

        let k2 = calp0 * calp0 * ep2
        let eps = Self.seriesVariable(k2)
        let a1m1 = GeodesicSeries.distanceScaleMinusOne(eps)
        let c1 = GeodesicSeries.distanceSeries(eps)
        let b11 = c1.sum(sin: ssig1, cos: csig1)
        // τ₁ = σ₁ + B₁₁.
        let sinB11 = sin(b11), cosB11 = cos(b11)
        let stau1 = ssig1 * cosB11 + csig1 * sinB11
        let ctau1 = csig1 * cosB11 - ssig1 * sinB11
        let c1p = GeodesicSeries.distanceSeriesReverted(eps)
        let a3c = -f * salp0 * longitudeScale(eps)
        let c3 = longitudeSeries(eps)
        let b31 = c3.sum(sin: ssig1, cos: csig1)

        // τ₁₂ from the distance, then σ₁₂ = τ₁₂ - (B₁₂ - B₁₁) with B₁₂ from the reverted series at τ₂.
        let tau12 = s12 / (b * (1 + a1m1))
        let sinTau12 = sin(tau12), cosTau12 = cos(tau12)
        let b12 = -c1p.sum(sin: stau1 * cosTau12 + ctau1 * sinTau12, cos: ctau1 * cosTau12 - stau1 * sinTau12)
        let sig12 = tau12 - (b12 - b11)
        let ssig12 = sin(sig12), csig12 = cos(sig12)
        // The flattening of the Earth needs no correction step (that is for |f| > 0.01).

        // σ₂ = σ₁ + σ₁₂.
        let ssig2 = ssig1 * csig12 + csig1 * ssig12
        var csig2 = csig1 * csig12 - ssig1 * ssig12
        // sin β₂ = cos α₀ sin σ₂.
        let sbet2 = calp0 * ssig2
        var cbet2 = hypot(salp0, calp0 * csig2)
        if cbet2 == 0 {
            // At a pole on a meridian: break the degeneracy.
            cbet2 = Self.tiny
            csig2 = Self.tiny
        }
        // ω₁₂ = ω₂ - ω₁, then λ₁₂ = ω₁₂ + A₃c (σ₁₂ + B₃₂ - B₃₁).
        let somg2 = salp0 * ssig2, comg2 = csig2
        let omg12 = atan2(somg2 * comg1 - comg2 * somg1, comg2 * comg1 + somg2 * somg1)
        let lam12 = omg12 + a3c * (sig12 + (c3.sum(sin: ssig2, cos: csig2) - b31))
        let lon12 = lam12 / GeodesicAngles.radiansPerDegree
        let lon2 = GeodesicAngles.normalized(GeodesicAngles.normalized(lon1) + GeodesicAngles.normalized(lon12))
        let lat2 = GeodesicAngles.atan2Degrees(sbet2, f1 * cbet2)
        return (lat2, lon2)
    }
}
