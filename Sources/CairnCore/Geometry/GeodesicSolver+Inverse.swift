#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension GeodesicSolver {
    /// The length in metres of the shortest geodesic from (lat1, lon1) to (lat2, lon2), degrees (Karney 2013,
    /// §4–5). Latitudes outside [-90, 90] give NaN; longitudes may be anything finite (reduced exactly).
    /// - Complexity: O(1): on WGS84 about 2–3 Newton steps on average for random pairs, at most `maxSteps`.
    func inverseMeters(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let (lon12, lon12s) = GeodesicAngles.difference(from: lon1, to: lon2)
        // Latitudes a hair from the equator count as on it.
        return inverseMeters(first: GeodesicLatitude(GeodesicAngles.rounded(GeodesicAngles.checkedLatitude(lat1)), self),
                             second: GeodesicLatitude(GeodesicAngles.rounded(GeodesicAngles.checkedLatitude(lat2)), self),
                             lon12: lon12, lon12s: lon12s)
    }

    /// The inverse problem from two latitudes already reduced (`GeodesicLatitude`, latitudes rounded as
    /// `inverseMeters` rounds them) and the longitude difference λ₂ - λ₁ with its error from
    /// `GeodesicAngles.difference`: the same bits as `inverseMeters(_:_:_:_:)`, whose body this is.
    /// - Complexity: O(1), as `inverseMeters(_:_:_:_:)`.
    @inline(__always)
    func inverseMeters(first: GeodesicLatitude, second: GeodesicLatitude, lon12: Double, lon12s: Double) -> Double {
        // Canonical form: 0 ≤ λ₁₂ ≤ 180, -90 ≤ φ₁ ≤ -0, φ₁ ≤ φ₂ ≤ -φ₁. The distance needs no record of the
        // reflections used to get there.
        var lon12 = lon12, lon12s = lon12s
        if lon12.sign == .minus {
            lon12 = -lon12
            lon12s = -lon12s
        }
        let lam12 = lon12 * GeodesicAngles.radiansPerDegree
        let (slam12, clam12) = GeodesicAngles.sinCos(lon12, plus: lon12s)
        // The supplement 180° - λ₁₂, with its error.
        let lon12Supplement = (180 - lon12) - lon12s

        var one = first, two = second
        // The point nearer a pole first (a NaN latitude goes first too).
        if abs(one.phi) < abs(two.phi) || two.phi.isNaN { swap(&one, &two) }
        if one.phi.sign != .minus {
            one = one.negated
            two = two.negated
        }
        let phi1 = one.phi

        let p = endpoints(one, two)
        // On one meridian (or starting at a pole): the meridian itself may be the shortest path.
        if phi1 == -90 || slam12 == 0 {
            if let meters = meridionalMeters(p, salp1: slam12, calp1: clam12) { return meters }
        }
        // On the equator, unless the points are so nearly antipodal that the shortest path leaves it
        // (the geodesic over the pole is shorter when λ₁₂ > (1 - f) 180°).
        if p.sbet1 == 0 && (f <= 0 || lon12Supplement >= f * 180) {
            return 0 + a * lam12
        }
        let guess = start(p, lam12: lam12, slam12: slam12, clam12: clam12)
        if guess.sig12 >= 0 {
            return 0 + guess.sig12 * b * guess.dnm
        }
        return 0 + b * newtonDistance(p, guess: guess, slam12: slam12, clam12: clam12)
    }

    /// The endpoints of the canonical problem from its two reduced latitudes (β₁ ≤ -0, |β₂| ≤ -β₁), with |β₂|
    /// forced equal to |β₁| when rounding made them differ in the last bit only.
    @inline(__always)
    func endpoints(_ one: GeodesicLatitude, _ two: GeodesicLatitude) -> GeodesicEndpoints {
        let sbet1 = one.sbet, cbet1 = one.cbet
        var sbet2 = two.sbet, cbet2 = two.cbet
        // cbet2 - cbet1 measures |β₁| - |β₂| well when cbet1 < -sbet1, |sbet2| + sbet1 otherwise; where that
        // measure vanishes, make it vanish exactly.
        if cbet1 < -sbet1 {
            if cbet2 == cbet1 { sbet2 = Double(signOf: sbet2, magnitudeOf: sbet1) }
        } else if abs(sbet2) == -sbet1 {
            cbet2 = cbet1
        }
        return GeodesicEndpoints(sbet1: sbet1, cbet1: cbet1, dn1: (1 + ep2 * (sbet1 * sbet1)).squareRoot(),
                                 sbet2: sbet2, cbet2: cbet2, dn2: (1 + ep2 * (sbet2 * sbet2)).squareRoot())
    }

    /// The distance along the meridian through both points, heading α₁ = λ₁₂ (0 or 180°), or nil when the
    /// meridian is not the shortest path (its reduced length is negative: past the conjugate point).
    private func meridionalMeters(_ p: GeodesicEndpoints, salp1: Double, calp1: Double) -> Double? {
        // tan β = tan σ cos α; at the target the path heads north.
        let ssig1 = p.sbet1, csig1 = calp1 * p.cbet1
        let ssig2 = p.sbet2, csig2 = 1 * p.cbet2
        var sig12 = atan2(fmax(0, csig1 * ssig2 - ssig1 * csig2) + 0, csig1 * csig2 + ssig1 * ssig2)
        var (s12b, m12b) = distanceAndReducedLength(eps: n, sig12: sig12, p,
                                                     ssig1: ssig1, csig1: csig1, ssig2: ssig2, csig2: csig2)
        guard sig12 < 1 || m12b >= 0 else { return nil }
        // Coincident points (and rounding that would make a short line negative) measure zero.
        if sig12 < 3 * Self.tiny || (sig12 < Self.tol0 && (s12b < 0 || m12b < 0)) {
            sig12 = 0
            s12b = 0
        }
        return 0 + s12b * b
    }

    /// Newton's method on α₁ for λ₁₂(α₁) = λ₁₂, with the root kept in a bracket (α₁a, α₁b) and a bisection
    /// whenever a step would leave (0, π) or the slope is not positive (Karney 2013, §5). Returns s₁₂ / b.
    private func newtonDistance(_ p: GeodesicEndpoints, guess: GeodesicStart, slam12: Double, clam12: Double) -> Double {
        var salp1 = guess.salp1, calp1 = guess.calp1
        var salp1a = Self.tiny, calp1a = 1.0, salp1b = Self.tiny, calp1b = -1.0
        var nearRoot = false, bracketSpent = false
        var t: GeodesicTrial
        var step = 0
        while true {
            defer { step += 1 }
            let newton = step < Self.maxNewtonSteps
            t = trial(p, salp1: salp1, calp1: calp1, slam12: slam12, clam12: clam12)
            let v = t.mismatch
            // Reversed test: a NaN stops the iteration.
            if bracketSpent || !(abs(v) >= (nearRoot ? 8 : 1) * Self.tol0) || step == Self.maxSteps { break }
            // The slope only once the trial is known not to be the last: the reference implementations compute it
            // with the mismatch, but nothing after the loop reads it, so the result keeps its bits.
            if newton { t.slope = slope(t, p) }
            if v > 0 && (step > Self.maxNewtonSteps || calp1 / salp1 > calp1b / salp1b) {
                salp1b = salp1
                calp1b = calp1
            } else if v < 0 && (step > Self.maxNewtonSteps || calp1 / salp1 < calp1a / salp1a) {
                salp1a = salp1
                calp1a = calp1
            }
            if newton && t.slope > 0 {
                let dalp1 = -v / t.slope
                if abs(dalp1) < Double.pi {
                    let sdalp1 = sin(dalp1), cdalp1 = cos(dalp1)
                    let nsalp1 = salp1 * cdalp1 + calp1 * sdalp1
                    if nsalp1 > 0 {
                        calp1 = calp1 * cdalp1 - salp1 * sdalp1
                        salp1 = nsalp1
                        GeodesicAngles.normalize(&salp1, &calp1)
                        // Where the slope vanishes convergence is linear: stop at epsilon, not its root.
                        nearRoot = abs(v) <= 16 * Self.tol0
                        continue
                    }
                }
            }
            // Bisect the bracket.
            salp1 = (salp1a + salp1b) / 2
            calp1 = (calp1a + calp1b) / 2
            GeodesicAngles.normalize(&salp1, &calp1)
            nearRoot = false
            bracketSpent = abs(salp1a - salp1) + (calp1a - calp1) < Self.tolb
                || abs(salp1 - salp1b) + (calp1 - calp1b) < Self.tolb
        }
        return distance(eps: t.eps, sig12: t.sig12, ssig1: t.ssig1, csig1: t.csig1, ssig2: t.ssig2, csig2: t.csig2)
    }
}
