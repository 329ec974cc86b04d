#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A latitude with its reduced latitude β (tan β = (1 - f) tan φ) as the inverse problem needs it: sin β and
/// cos β normalised, cos β at least `GeodesicSolver.tiny` (the poles). Computed once per point, so that many
/// inverse problems from one point (`GeodesicFromPoint`) reduce its latitude once.
///
/// Negating φ negates sin β and keeps cos β to the bit: libm's sin is odd and cos even, the exact reduction
/// (`GeodesicAngles.sinCos`) turns -φ into the mirrored quadrant, and `hypot` ignores signs; so `negated` gives
/// the bits `init` would give for -φ, and the solver's reflections need no second reduction.
struct GeodesicLatitude {
    /// The latitude, degrees, as the solver rounds it (`GeodesicAngles.rounded`).
    let phi: Double
    /// sin β and cos β.
    let sbet: Double
    let cbet: Double

    /// The reduced latitude of `phi` (degrees, already rounded by `GeodesicAngles.rounded`) on `solver`'s ellipsoid.
    /// - Complexity: O(1), a sine and a cosine.
    @inline(__always)
    init(_ phi: Double, _ solver: GeodesicSolver) {
        var (sbet, cbet) = GeodesicAngles.sinCos(phi)
        sbet *= solver.f1
        GeodesicAngles.normalize(&sbet, &cbet)
        self.phi = phi
        self.sbet = sbet
        self.cbet = fmax(GeodesicSolver.tiny, cbet)
    }

    private init(phi: Double, sbet: Double, cbet: Double) {
        self.phi = phi
        self.sbet = sbet
        self.cbet = cbet
    }

    /// The mirrored latitude -φ.
    /// - Complexity: O(1).
    @inline(__always)
    var negated: GeodesicLatitude { GeodesicLatitude(phi: -phi, sbet: -sbet, cbet: cbet) }
}
