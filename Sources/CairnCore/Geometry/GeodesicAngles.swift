#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Angle arithmetic in degrees for the geodesic solver, with exact argument reduction.
///
/// Method: Karney, "Algorithms for geodesics", J. Geodesy 87:43–55 (2013), §2 and the GeographicLib notes on
/// trigonometry in degrees: a longitude is reduced to [-180, 180] with the exact IEEE `remainder`, and to an
/// octant with `remquo` before conversion to radians, so sin 30° is 1/2 to the last bit and a longitude of
/// 3600.5 loses nothing. Accuracy: reductions are exact; each result is within an ulp or two of the true value.
enum GeodesicAngles {
    /// π / 180, as the reference implementations round it.
    static let radiansPerDegree = Double.pi / 180

    /// `x` reduced to [-180, 180]; 180 and -180 keep the sign of `x`. Exact.
    /// - Complexity: O(1).
    @inline(__always)
    static func normalized(_ x: Double) -> Double {
        let y = x.remainder(dividingBy: 360)
        return abs(y) == 180 ? Double(signOf: x, magnitudeOf: 180) : y
    }

    /// The sum `u + v` rounded, with the rounding error `t` such that u + v = sum + t exactly
    /// (Knuth's two-sum; zero error for a zero sum).
    /// - Complexity: O(1).
    @inline(__always)
    static func twoSum(_ u: Double, _ v: Double) -> (sum: Double, error: Double) {
        let s = u + v
        var up = s - v
        var vpp = s - up
        up -= u
        vpp -= v
        return (s, s != 0 ? 0 - (up + vpp) : s)
    }

    /// The difference `y - x` reduced to [-180, 180] and its rounding error: the true difference is
    /// `difference + error`. -180 only for a westward difference, 180 for an eastward one.
    /// - Complexity: O(1).
    @inline(__always)
    static func difference(from x: Double, to y: Double) -> (difference: Double, error: Double) {
        difference(from: x, reducedNegation: reduced360(-x), to: y)
    }

    /// `difference(from:to:)` with `(-x).remainder(dividingBy: 360)` already computed (`reducedNegation`), for
    /// many differences from one longitude. The same bits.
    /// - Complexity: O(1).
    @inline(__always)
    static func difference(from x: Double, reducedNegation: Double, to y: Double) -> (difference: Double, error: Double) {
        let first = twoSum(reducedNegation, reduced360(y))
        let second = twoSum(reduced360(first.sum), first.error)
        var d = second.sum
        let t = second.error
        if d == 0 || abs(d) == 180 {
            // The sign of a zero or half-turn difference follows the exact difference.
            d = Double(signOf: t == 0 ? y - x : -t, magnitudeOf: d)
        }
        return (d, t)
    }

    /// `x.remainder(dividingBy: 360)`, skipping the call for |x| ≤ 180, where the IEEE remainder is `x` itself
    /// (the nearest integer to x / 360 is 0, ties to even at ±180; a zero keeps its sign). The same bits.
    /// - Complexity: O(1).
    @inline(__always)
    static func reduced360(_ x: Double) -> Double {
        abs(x) <= 180 ? x : x.remainder(dividingBy: 360)
    }

    /// `remquo(x, 90)`: the remainder and the quotient's low bits. The libm call is skipped for |x| < 135, where
    /// the nearest integer n to x / 90 is 0 (|x| ≤ 45, ties to even at ±45) or ±1, and x ∓ 90 is exact (Sterbenz:
    /// 45 ≤ |x| ≤ 180; a zero remainder signed as x); the quotient then is n itself. The same bits as the call (`GeodesicFromPointTests` checks).
    /// - Complexity: O(1).
    @inline(__always)
    static func remainderAndQuadrant(_ x: Double) -> (remainder: Double, quadrant: Int32) {
        let magnitude = abs(x)
        if magnitude <= 45 { return (x, 0) }
        if magnitude < 135 {
            let r = x > 0 ? x - 90 : x + 90
            // A zero remainder takes the sign of x (remquo(-90, 90) is -0).
            return (r == 0 ? Double(signOf: x, magnitudeOf: 0) : r, x > 0 ? 1 : -1)
        }
        var quadrant: Int32 = 0
        let r = remquo(x, 90, &quadrant)
        return (r, quadrant)
    }

    /// `x` with tiny magnitudes rounded so that |x| < 1/16 keeps at most about 57 bits after the point:
    /// latitudes a hair from the equator then count as on it, which keeps the equatorial case exact.
    /// - Complexity: O(1).
    @inline(__always)
    static func rounded(_ x: Double) -> Double {
        let z = 1.0 / 16
        let y = abs(x)
        let w = z - y
        // z - (z - y) rounds y to a multiple of the ulp of z; the compiler may not fold it (IEEE semantics).
        return Double(signOf: x, magnitudeOf: w > 0 ? z - w : y)
    }

    /// A latitude, or NaN when it is outside [-90, 90].
    /// - Complexity: O(1).
    @inline(__always)
    static func checkedLatitude(_ x: Double) -> Double {
        abs(x) > 90 ? .nan : x
    }

    /// Sine and cosine of `degrees`, reduced exactly to [-45, 45] first.
    /// - Complexity: two libm calls.
    @inline(__always)
    static func sinCos(_ degrees: Double) -> (sin: Double, cos: Double) {
        let (r, quadrant) = remainderAndQuadrant(degrees)
        return quadrantTurned(r * radiansPerDegree, quadrant: quadrant, sign: degrees)
    }

    /// Sine and cosine of `degrees + error`, where `error` is a small correction to an exactly reduced angle.
    /// - Complexity: two libm calls.
    @inline(__always)
    static func sinCos(_ degrees: Double, plus error: Double) -> (sin: Double, cos: Double) {
        let (remainder, quadrant) = remainderAndQuadrant(degrees)
        let r = rounded(remainder + error)
        return quadrantTurned(r * radiansPerDegree, quadrant: quadrant, sign: degrees)
    }

    /// Sine and cosine of `radians + quadrant × 90°`; a zero sine takes the sign of `sign` and the cosine is
    /// never -0 (the C standard's special values for sin and cos).
    @inline(__always)
    private static func quadrantTurned(_ radians: Double, quadrant: Int32, sign: Double) -> (sin: Double, cos: Double) {
        let s = sin(radians), c = cos(radians)
        var sinX: Double, cosX: Double
        switch quadrant & 3 {
        case 0: (sinX, cosX) = (s, c)
        case 1: (sinX, cosX) = (c, -s)
        case 2: (sinX, cosX) = (-s, -c)
        default: (sinX, cosX) = (-c, s)
        }
        cosX += 0
        if sinX == 0 { sinX = Double(signOf: sign, magnitudeOf: sinX) }
        return (sinX, cosX)
    }

    /// atan2(y, x) in degrees, computed in the octant [-45°, 45°] and turned back, so that results on the axes
    /// and diagonals are exact. In [-180, 180].
    /// - Complexity: one libm call.
    @inline(__always)
    static func atan2Degrees(_ y: Double, _ x: Double) -> Double {
        var x = x, y = y
        var quadrant = 0
        if abs(y) > abs(x) {
            swap(&x, &y)
            quadrant = 2
        }
        if x.sign == .minus {
            x = -x
            quadrant += 1
        }
        let angle = atan2(y, x) / radiansPerDegree
        switch quadrant {
        case 1: return Double(signOf: y, magnitudeOf: 180) - angle
        case 2: return 90 - angle
        case 3: return -90 + angle
        default: return angle
        }
    }

    /// Normalises (sin, cos) to a unit vector.
    /// - Complexity: one `hypot`.
    @inline(__always)
    static func normalize(_ sinX: inout Double, _ cosX: inout Double) {
        let r = hypot(sinX, cosX)
        sinX /= r
        cosX /= r
    }
}
