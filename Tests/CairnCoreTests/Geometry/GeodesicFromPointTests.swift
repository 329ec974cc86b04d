import CairnTestSupport
import Foundation
import Testing
@testable import CairnCore

/// The fixed-point inverse (`GeodesicFromPoint`, `DistanceFromPoint`) and the call-free reductions under it give
/// the bits of the plain solver and of libm, on seeded inputs of every kind `GeodesicSolverTests` draws (poles,
/// antimeridian, equator, coincident, nearly antipodal, far longitudes, short lines).
///
/// Pairs: 200,000 in all in a debug build, 2,000,000 in a release build; `CAIRN_GEODESIC_PAIRS=N` sets the total.
@Suite("Geodesic from a fixed point")
struct GeodesicFromPointTests {
    static var pairsPerCase: Int {
        let total: Int
        if let text = ProcessInfo.processInfo.environment["CAIRN_GEODESIC_PAIRS"], let n = Int(text) {
            total = n
        } else {
            #if DEBUG
            total = 200_000
            #else
            total = 2_000_000
            #endif
        }
        return total / GeodesicSolverTests.Case.allCases.count
    }

    @Test("distances from a fixed point have the plain solver's bits", arguments: GeodesicSolverTests.Case.allCases)
    func sameBits(_ kind: GeodesicSolverTests.Case) {
        var random = SplitMix64(seed: 0x6E61_7220 + UInt64(kind.rawValue.utf8.count))
        var failures = 0
        for _ in 0..<Self.pairsPerCase {
            let (lat1, lon1, lat2, lon2) = GeodesicSolverTests.pair(kind, &random)
            let plain = Geodesic.inverseMeters(lat1, lon1, lat2, lon2)
            let fromPoint = GeodesicFromPoint(latitude: lat1, longitude: lon1).meters(toLatitude: lat2, longitude: lon2)
            let viaModel = DistanceFromPoint(.wgs84, latitude: lat1, longitude: lon1).meters(toLatitude: lat2, longitude: lon2)
            let sphere = DistanceFromPoint(.sphere, latitude: lat1, longitude: lon1).meters(toLatitude: lat2, longitude: lon2)
            let same = fromPoint.bitPattern == plain.bitPattern && viaModel.bitPattern == plain.bitPattern
                && sphere.bitPattern == measure(.sphere, lat1, lon1, lat2, lon2).bitPattern
            if !same {
                failures += 1
                if failures <= 5 {
                    Issue.record("\(kind) \(lat1) \(lon1) \(lat2) \(lon2): plain \(plain), from the point \(fromPoint), via the model \(viaModel)")
                }
            }
        }
        #expect(failures == 0)
    }

    /// Inputs around every boundary of the reductions: ±0, the multiples of 45°, one ulp either side, and seeded
    /// values out to two turns each way.
    static func angles() -> [Double] {
        var values: [Double] = [0, -0.0, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, 1e-300, -1e-300]
        for k in -16...16 {
            let x = Double(k) * 45
            values += [x, x.nextUp, x.nextDown, x + 1e-9, x - 1e-9]
        }
        var random = SplitMix64(seed: 0x7265_6475)
        for _ in 0..<100_000 { values.append(random.uniform(-720...720)) }
        for _ in 0..<10_000 { values.append(random.uniform(-200...200)) }
        return values
    }

    @Test("remainderAndQuadrant is remquo(x, 90) to the bit, quadrant included")
    func remainderAndQuadrantIsRemquo() {
        for x in Self.angles() {
            var quadrant: Int32 = 0
            let r = remquo(x, 90, &quadrant)
            let ours = GeodesicAngles.remainderAndQuadrant(x)
            #expect(ours.remainder.bitPattern == r.bitPattern && ours.quadrant & 3 == quadrant & 3, "\(x): \(ours) against \(r), \(quadrant)")
        }
    }

    @Test("reduced360 is x.remainder(dividingBy: 360) to the bit")
    func reduced360IsRemainder() {
        for x in Self.angles() {
            let r = x.remainder(dividingBy: 360)
            #expect(GeodesicAngles.reduced360(x).bitPattern == r.bitPattern, "\(x): \(GeodesicAngles.reduced360(x)) against \(r)")
        }
    }

    @Test("a negated reduced latitude has the bits of the reduction of -φ")
    func negatedLatitude() {
        var latitudes: [Double] = [0, 90, 89.999999999, 45, 1e-20, 1e-300, .leastNonzeroMagnitude, 30, 60]
        var random = SplitMix64(seed: 0x6C61_7469)
        for _ in 0..<100_000 { latitudes.append(random.uniform(-90...90)) }
        for phi in latitudes.map(GeodesicAngles.rounded) {
            let mirrored = GeodesicLatitude(phi, .wgs84).negated
            let direct = GeodesicLatitude(-phi, .wgs84)
            #expect(mirrored.phi.bitPattern == direct.phi.bitPattern && mirrored.sbet.bitPattern == direct.sbet.bitPattern
                    && mirrored.cbet.bitPattern == direct.cbet.bitPattern, "\(phi)")
        }
    }
}
