import CairnTestSupport
import Testing
@testable import CairnCore

/// `CoordinateTransform` against pyproj's answers (`PyprojVectors.swift`, made by `scripts/crs-check
/// --swift-vectors`): pyproj carries its own PROJ, so these check Cairn's use of libproj (axis order, batches,
/// the operation chosen), not PROJ against itself.
@Suite struct CoordinateTransformTests {
    /// 1 mm in metres, or in US feet for EPSG:2263 (a tighter bound there).
    static let projectedTolerance = 0.001
    static let degreeTolerance = 1e-9

    static let systems = ["EPSG:3067", "EPSG:2263", "EPSG:3857"]

    @Test("WGS84 into the system, as pyproj", arguments: systems)
    func forward(system: String) throws {
        let vectors = pyprojVectors.filter { $0.system == system }
        let transform = try CoordinateTransform.fromWGS84(to: system)
        var xs = vectors.map(\.longitude), ys = vectors.map(\.latitude)
        transform.transform(x: &xs, y: &ys)
        for (n, vector) in vectors.enumerated() {
            #expect(abs(xs[n] - vector.x) <= Self.projectedTolerance, "\(system) x of \(vector)")
            #expect(abs(ys[n] - vector.y) <= Self.projectedTolerance, "\(system) y of \(vector)")
        }
    }

    @Test("the system into WGS84, as pyproj", arguments: systems)
    func inverse(system: String) throws {
        let vectors = pyprojVectors.filter { $0.system == system }
        let transform = try CoordinateTransform.toWGS84(from: system)
        var xs = vectors.map(\.x), ys = vectors.map(\.y)
        transform.transform(x: &xs, y: &ys)
        for (n, vector) in vectors.enumerated() {
            #expect(abs(xs[n] - vector.longitude) <= Self.degreeTolerance, "\(system) longitude of \(vector)")
            #expect(abs(ys[n] - vector.latitude) <= Self.degreeTolerance, "\(system) latitude of \(vector)")
        }
    }

    @Test("the system into Web Mercator directly, as pyproj", arguments: ["EPSG:3067", "EPSG:2263"])
    func intoMercator(system: String) throws {
        let vectors = pyprojVectors.filter { $0.system == system }
        let transform = try CoordinateTransform(from: system, to: "EPSG:3857")
        var xs = vectors.map(\.x), ys = vectors.map(\.y)
        transform.transform(x: &xs, y: &ys)
        for (n, vector) in vectors.enumerated() {
            #expect(abs(xs[n] - vector.mercatorX) <= Self.projectedTolerance, "\(system) → 3857 x of \(vector)")
            #expect(abs(ys[n] - vector.mercatorY) <= Self.projectedTolerance, "\(system) → 3857 y of \(vector)")
        }
    }

    @Test func roundTripThroughEverySystemComesBack() throws {
        let chain = ["EPSG:4326", "EPSG:3067", "EPSG:3857", "EPSG:2263", "EPSG:4326"]
        var random = SplitMix64(seed: 19)
        var xs = (0..<500).map { _ in random.uniform(-74.25 ... -71.9) }
        var ys = (0..<500).map { _ in random.uniform(40.5 ... 41.2) }
        let (longitudes, latitudes) = (xs, ys)
        for (source, target) in zip(chain, chain.dropFirst()) {
            try CoordinateTransform(from: source, to: target).transform(x: &xs, y: &ys)
        }
        for n in xs.indices {
            #expect(abs(xs[n] - longitudes[n]) <= Self.degreeTolerance)
            #expect(abs(ys[n] - latitudes[n]) <= Self.degreeTolerance)
        }
    }

    @Test func longitudeComesFirstEvenForLatitudeFirstSystems() throws {
        // EPSG:4258 (ETRS89) is latitude first by definition; normalised, x is the longitude on both sides.
        var xs = [24.94], ys = [60.17]
        try CoordinateTransform(from: "EPSG:4258", to: "EPSG:4326").transform(x: &xs, y: &ys)
        #expect(abs(xs[0] - 24.94) < 1e-6 && abs(ys[0] - 60.17) < 1e-6)
    }

    @Test func aPositionOutsideTheDomainComesBackInfinite() throws {
        // PROJ refuses a latitude beyond 90 degrees (the pole itself is far but finite in Web Mercator).
        var xs = [24.94, 0], ys = [60.17, 91]
        try CoordinateTransform.fromWGS84(to: "EPSG:3857").transform(x: &xs, y: &ys)
        #expect(xs[0].isFinite && ys[0].isFinite)
        #expect(xs[1] == .infinity && ys[1] == .infinity)
    }

    @Test func anUnknownSystemIsNamedInTheError() {
        #expect {
            _ = try CoordinateTransform.toWGS84(from: "EPSG:99999")
        } throws: { error in
            let message = "\(error)"
            return message.hasPrefix("coordinate system 'EPSG:99999': ") && message.count > "coordinate system 'EPSG:99999': ".count
        }
        #expect {
            _ = try CoordinateTransform.toWGS84(from: "+proj=merc")
        } throws: { error in
            "\(error)".contains("not a coordinate reference system")
        }
        #expect {
            _ = try CoordinateTransform.toWGS84(from: "no such thing")
        } throws: { error in
            "\(error)".hasPrefix("coordinate system 'no such thing': ")
        }
    }

    @Test func theTargetIsNamedAsAnOGCURN() throws {
        #expect(try CoordinateTransform.fromWGS84(to: "EPSG:3857").targetName == "urn:ogc:def:crs:EPSG::3857")
    }

    @Test func degreesAreToldFromProjectedPositions() {
        #expect(CoordinateTransform.cannotBeDegrees(x: 385000, y: 6672000))
        #expect(!CoordinateTransform.cannotBeDegrees(x: 24.9, y: 60.2))
        #expect(!CoordinateTransform.cannotBeDegrees(x: 24.9, y: 95)) // one bad ordinate is a bad row, not a system
        #expect(CoordinateTransform.namesWGS84Degrees("urn:ogc:def:crs:OGC:1.3:CRS84"))
        #expect(!CoordinateTransform.namesWGS84Degrees("EPSG:2263"))
    }
}
