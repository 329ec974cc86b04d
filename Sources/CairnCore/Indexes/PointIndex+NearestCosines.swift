#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Bounds on cos φ without trigonometry, for the nearest search's node and item bounds: cos φ at every tenth of a
/// degree of latitude, read at the step beyond or before φ. cos decreases on [0°, 90°], so the value at the next
/// step up is a floor and the one at the step below a ceiling; both are widened by more than the table's rounding
/// (libm's cos is within an ulp, the step's argument within another). A tenth of a degree keeps a bound within
/// 0.3 % of cos φ below 60° (the search only orders and prunes with them: results are exact) in 7 KB.
enum NearestCosines {
    /// Steps per degree.
    static let stepsPerDegree = 10.0
    /// cos(i / 10 °) for i = 0...900.
    static let table: [Double] = (0...900).map { cos(Double($0) / 10 * Spherical.radiansPerDegree) }

    /// A floor on cos φ for every |φ| up to `degrees` (0...90).
    /// - Complexity: O(1).
    @inline(__always)
    static func floor(atMost degrees: Double) -> Double {
        let step = Int((degrees * stepsPerDegree).rounded(.up))
        guard step >= 0, step < table.count else { return 0 }
        return Swift.max(0, table[step] * (1 - 1e-12) - 1e-15)
    }

    /// A ceiling on cos φ for every |φ| from `degrees` (0...90) up.
    /// - Complexity: O(1).
    @inline(__always)
    static func ceiling(atLeast degrees: Double) -> Double {
        let step = Int((degrees * stepsPerDegree).rounded(.down))
        guard step >= 0, step < table.count else { return 1 }
        return Swift.min(1, table[step] * (1 + 1e-12) + 1e-15)
    }
}
