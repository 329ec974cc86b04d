import CairnTestSupport
import Foundation
import Testing
@testable import CairnCore

/// Cairn's Karney solver against PROJ's `geod_inverse`/`geod_direct` on seeded random pairs, case by case.
///
/// Pairs per case: 2,000,000 in all in a release build; in a debug build (the suite's) 250,000 in all, so the
/// suite stays within seconds. `CAIRN_GEODESIC_PAIRS=N` sets the total (each case gets N / cases).
@Suite("Karney geodesic against PROJ")
struct GeodesicSolverTests {
    enum Case: String, CaseIterable, CustomTestStringConvertible {
        case anywhere, nearPoles, atPoles, equator, meridional, nearlyAntipodal, coincident, tiny, farLongitudes
        case shortLines
        var testDescription: String { rawValue }
    }

    static var totalPairs: Int {
        if let text = ProcessInfo.processInfo.environment["CAIRN_GEODESIC_PAIRS"], let n = Int(text) { return n }
        #if DEBUG
        return 250_000
        #else
        return 2_000_000
        #endif
    }

    static var pairsPerCase: Int { totalPairs / Case.allCases.count }

    /// A seeded random pair of points of `kind`: (lat1, lon1, lat2, lon2) in degrees.
    static func pair(_ kind: Case, _ random: inout SplitMix64) -> (Double, Double, Double, Double) {
        func lat() -> Double { random.uniform(-90...90) }
        func lon() -> Double { random.uniform(-180...180) }
        func sign() -> Double { random.chance(0.5) ? 1 : -1 }
        /// 10^u for u uniform in `exponents`.
        func logUniform(_ exponents: ClosedRange<Double>) -> Double { pow(10, random.uniform(exponents)) }
        switch kind {
        case .anywhere:
            return (lat(), lon(), lat(), lon())
        case .nearPoles:
            let lat1 = sign() * random.uniform(89.9...90)
            let lat2 = random.chance(0.5) ? sign() * random.uniform(89.9...90) : lat()
            return (lat1, lon(), lat2, lon())
        case .atPoles:
            let lat1 = sign() * 90
            let lat2 = random.chance(0.3) ? sign() * 90 : lat()
            return random.chance(0.5) ? (lat1, lon(), lat2, lon()) : (lat2, lon(), lat1, lon())
        case .equator:
            let lon1 = lon()
            // A third of the pairs beyond the point where the equator stops being shortest (λ₁₂ > (1 - f) 180°).
            let lon2 = random.chance(0.33) ? lon1 + sign() * random.uniform(179...180) : lon()
            let nudge = random.chance(0.2) ? sign() * logUniform(-30 ... -8) : 0
            return (0, lon1, nudge, lon2)
        case .meridional:
            let lon1 = lon()
            let lon2 = random.chance(0.5) ? lon1 : lon1 + sign() * 180
            return (lat(), lon1, lat(), lon2)
        case .nearlyAntipodal:
            let lat1 = lat()
            // Mostly 1e-9…1e-3 degrees from the antipode, a fifth out to 0.1 (the astroid's whole domain).
            let exponents: ClosedRange<Double> = random.chance(0.2) ? -9 ... -1 : -9 ... -3
            let dLat = random.chance(0.1) ? 0 : sign() * logUniform(exponents)
            let dLon = random.chance(0.1) ? 0 : sign() * logUniform(exponents)
            let lat2 = max(-90, min(90, -lat1 + dLat))
            let lon1 = lon()
            return (lat1, lon1, lat2, lon1 + 180 + dLon)
        case .coincident:
            let lat1 = lat(), lon1 = lon()
            return (lat1, lon1, lat1, random.chance(0.5) ? lon1 : lon1 + sign() * 360)
        case .tiny:
            // Under a millimetre: 1 mm is about 9e-9 degrees.
            let lat1 = lat(), lon1 = lon()
            let lat2 = max(-90, min(90, lat1 + sign() * logUniform(-15 ... -8.5)))
            return (lat1, lon1, lat2, lon1 + sign() * logUniform(-15 ... -8.5))
        case .farLongitudes:
            let reach = random.chance(0.5) ? 1e4 : 1e9
            return (lat(), random.uniform(-reach...reach), lat(), random.uniform(-reach...reach))
        case .shortLines:
            // What radius queries measure: up to about 100 km.
            let lat1 = lat(), lon1 = lon()
            let lat2 = max(-90, min(90, lat1 + random.uniform(-1...1)))
            return (lat1, lon1, lat2, lon1 + random.uniform(-1...1))
        }
    }

    @Test("inverse: s12 within 1e-9 m of geod_inverse", arguments: Case.allCases)
    func inverse(kind: Case) throws {
        let proj = try #require(PROJGeodesicOracle.shared, "libproj: \(PROJGeodesicOracle.loadError)")
        var random = SplitMix64(seed: 0x6B61_726E_6579 &+ UInt64(Case.allCases.firstIndex(of: kind) ?? 0))
        var worst = 0.0, worstRelative = 0.0, identical = 0, failures = 0
        let count = Self.pairsPerCase
        for _ in 0..<count {
            let (lat1, lon1, lat2, lon2) = Self.pair(kind, &random)
            let ours = Geodesic.inverseMeters(lat1, lon1, lat2, lon2)
            let theirs = proj.inverseMeters(lat1, lon1, lat2, lon2)
            if ours.bitPattern == theirs.bitPattern { identical += 1; continue }
            let gap = abs(ours - theirs)
            worst = max(worst, gap)
            worstRelative = max(worstRelative, gap / theirs)
            if !(gap <= 1e-9) {
                failures += 1
                if failures <= 5 {
                    Issue.record("\(kind) \(lat1) \(lon1) \(lat2) \(lon2): ours \(ours), PROJ \(theirs), gap \(gap) m")
                }
            }
        }
        print("geodesic inverse \(kind): \(count) pairs, \(identical) bit-identical "
              + "(\(Double(identical) / Double(count))), max gap \(worst) m, max relative \(worstRelative), failures \(failures)")
        #expect(failures == 0)
    }

    @Test("direct: lat2 and lon2 within 1e-12 degrees of geod_direct", arguments: Case.allCases)
    func direct(kind: Case) throws {
        let proj = try #require(PROJGeodesicOracle.shared, "libproj: \(PROJGeodesicOracle.loadError)")
        var random = SplitMix64(seed: 0x6469_7265_6374 &+ UInt64(Case.allCases.firstIndex(of: kind) ?? 0))
        var worst = 0.0, identical = 0, failures = 0
        // The direct problem has no iteration: a quarter as many cases is enough.
        let count = Self.pairsPerCase / 4
        for _ in 0..<count {
            let (lat1, lon1, lat2, lon2) = Self.pair(kind, &random)
            // Start at the first point, towards a random azimuth, as far as the second point or any distance.
            let azimuth = random.uniform(-540...540)
            let meters = random.chance(0.5)
                ? proj.inverseMeters(lat1, lon1, lat2, lon2) * (random.chance(0.5) ? 1 : -1)
                : random.uniform(-25_000_000...45_000_000)
            let ours = Geodesic.direct(lat1, lon1, azimuthDegrees: azimuth, meters: meters)
            let theirs = proj.direct(lat1, lon1, azimuthDegrees: azimuth, meters: meters)
            if ours.0.bitPattern == theirs.0.bitPattern && ours.1.bitPattern == theirs.1.bitPattern {
                identical += 1
                continue
            }
            // 180 and -180 are one meridian.
            let lonGap = abs(ours.1 - theirs.1), gap = max(abs(ours.0 - theirs.0), min(lonGap, 360 - lonGap))
            worst = max(worst, gap)
            if !(gap <= 1e-12) {
                failures += 1
                if failures <= 5 {
                    Issue.record("\(kind) \(lat1) \(lon1) \(azimuth) \(meters): ours \(ours), PROJ \(theirs)")
                }
            }
        }
        print("geodesic direct \(kind): \(count) cases, \(identical) bit-identical, max gap \(worst)°, failures \(failures)")
        #expect(failures == 0)
    }

    @Test("special points give PROJ's answers exactly")
    func specialPoints() throws {
        let proj = try #require(PROJGeodesicOracle.shared, "libproj: \(PROJGeodesicOracle.loadError)")
        let points: [(Double, Double, Double, Double)] = [
            (0, 0, 0, 0), (90, 0, 90, 180), (90, 0, -90, 0), (-90, 10, 90, -170), (0, 0, 0, 180), (0, 0, 0, 179.5),
            (0, 0, 0.5, 179.7), (48.522876735459, 0, -48.52287673545898293, 179.599720456223079643),
            (52.784459512564, 0, -52.784459512563990912, 179.634407464943777557), (20.001, 0, 20.001, 0),
            (0, 180, 0, -180), (0, 540, 0, -900), (-0.0, -0.0, 0.0, 0.0), (89.99999999999, 0, -89.99999999999, 180),
            (1e-300, 0, -1e-300, 179.9),
        ]
        for (lat1, lon1, lat2, lon2) in points {
            let ours = Geodesic.inverseMeters(lat1, lon1, lat2, lon2)
            let theirs = proj.inverseMeters(lat1, lon1, lat2, lon2)
            #expect(abs(ours - theirs) <= 1e-9, "\(lat1) \(lon1) \(lat2) \(lon2): ours \(ours), PROJ \(theirs)")
        }
        #expect(Geodesic.inverseMeters(91, 0, 0, 0).isNaN)
        #expect(Geodesic.inverseMeters(.nan, 0, 0, 0).isNaN)
        #expect(Geodesic.inverseMeters(0, 0, 0, .nan).isNaN)
    }
}
