import CairnTestSupport
import Testing
@testable import CairnCore

/// Shapes: the checks of `Shape(checking:)` with the path of the part at fault, WKB written and read back (both
/// byte orders, PostGIS's EWKB, ISO Z/M), damaged WKB refused, the representative point and the extent.
@Suite struct ShapeTests {
    @Test(arguments: ShapeKind.allCases)
    func wkbRoundTripsEveryKind(kind: ShapeKind) throws {
        var random = SplitMix64(seed: 19 + UInt64(kind.rawValue))
        for _ in 0..<200 {
            let center = try Coordinate(latitude: random.uniform(-90...90), longitude: random.uniform(-180...180))
            let shape = try SyntheticShapes.shape(kind, around: center, random: &random)
            let bytes = shape.wkb
            #expect(bytes.first == 1)
            #expect(try Shape(wkb: bytes) == shape)
            #expect(try Shape(wkb: ShapeTests.bigEndian(bytes)) == shape)
        }
    }

    /// A hand-written WKB, so that the encoder is checked against the standard and not only against its decoder.
    @Test func wkbMatchesTheStandardLayout() throws {
        var parts = ShapeParts(kind: .lineString)
        parts.append(longitude: 1, latitude: 2)
        parts.append(longitude: 3, latitude: 4)
        parts.endRing()
        let line = try Shape(checking: parts)
        var expected: [UInt8] = [1, 2, 0, 0, 0, 2, 0, 0, 0]
        for value in [1.0, 2, 3, 4] { withUnsafeBytes(of: value.bitPattern.littleEndian) { expected.append(contentsOf: $0) } }
        #expect(line.wkb == expected)
        // PostGIS EWKB with SRID 4326 and a Z ordinate: read, Z dropped.
        var ewkb: [UInt8] = [1]
        withUnsafeBytes(of: UInt32(0xA000_0001).littleEndian) { ewkb.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt32(4326).littleEndian) { ewkb.append(contentsOf: $0) }
        for value in [24.9, 60.1, 12.5] { withUnsafeBytes(of: value.bitPattern.littleEndian) { ewkb.append(contentsOf: $0) } }
        let point = try Shape(wkb: ewkb)
        let helsinki = try Coordinate(latitude: 60.1, longitude: 24.9)
        #expect(point.kind == .point && point.vertex(0) == helsinki)
        // ISO Z (1002) reads the same line.
        var iso: [UInt8] = [1, 0xEA, 0x03, 0, 0, 2, 0, 0, 0]
        for value in [1.0, 2, 9, 3, 4, 9] { withUnsafeBytes(of: value.bitPattern.littleEndian) { iso.append(contentsOf: $0) } }
        #expect(try Shape(wkb: iso) == line)
    }

    @Test func damagedWKBIsRefusedWithAReason() throws {
        var random = SplitMix64(seed: 5)
        let shape = try SyntheticShapes.shape(.multiPolygon, around: Coordinate(latitude: 10, longitude: 10), random: &random)
        let bytes = shape.wkb
        // Every truncation is refused, never a crash.
        for length in 0..<bytes.count {
            #expect(throws: ShapeError.self) { try Shape(wkb: bytes.prefix(length)) }
        }
        #expect(throws: ShapeError.invalidWKB("1 bytes after the geometry")) { try Shape(wkb: bytes + [0]) }
        #expect(throws: ShapeError.invalidWKB("byte order 7 at byte 0, expected 0 or 1")) { try Shape(wkb: [7] + bytes.dropFirst()) }
        // A count far beyond the bytes is refused before anything is reserved.
        var huge = bytes
        huge.replaceSubrange(5..<9, with: [0xFF, 0xFF, 0xFF, 0x7F])
        #expect(throws: ShapeError.self) { try Shape(wkb: huge) }
        // Another SRID is refused: coordinates are WGS84 degrees.
        var srid: [UInt8] = [1, 1, 0, 0, 0x20]
        withUnsafeBytes(of: UInt32(3067).littleEndian) { srid.append(contentsOf: $0) }
        srid += [UInt8](repeating: 0, count: 16)
        #expect(throws: ShapeError.invalidWKB("SRID 3067, expected 4326 (WGS84 degrees)")) { try Shape(wkb: srid) }
    }

    @Test func checksNameThePartAtFault() throws {
        var polygon = ShapeParts(kind: .multiPolygon)
        for (x, y) in [(0.0, 0.0), (1, 0), (1, 1), (0, 0)] { polygon.append(longitude: x, latitude: y) }
        polygon.endRing()
        polygon.endPolygon()
        for (x, y) in [(0.0, 0.0), (1, 0), (1, 91), (0, 0)] { polygon.append(longitude: x, latitude: y) }
        polygon.endRing()
        polygon.endPolygon()
        let error = try #require(throws: ShapeError.self) { try Shape(checking: polygon) }
        #expect(error.message(at: "geometry.coordinates").hasPrefix("geometry.coordinates[1][0][2]: latitude 91 is out of range [-90, 90]"))

        var short = ShapeParts(kind: .polygon)
        for (x, y) in [(0.0, 0.0), (1, 0), (0, 0)] { short.append(longitude: x, latitude: y) }
        short.endRing()
        short.endPolygon()
        #expect(throws: ShapeError.tooFewPositions(kind: .polygon, path: "[0]", count: 3, needed: 4)) { try Shape(checking: short) }

        var line = ShapeParts(kind: .lineString)
        line.append(longitude: 0, latitude: .nan)
        line.append(longitude: 1, latitude: 1)
        line.endRing()
        let nan = try #require(throws: ShapeError.self) { try Shape(checking: line) }
        #expect(nan.description == "[0]: latitude must be a finite number, got nan")
        #expect(throws: ShapeError.empty(kind: .multiPoint)) { try Shape(checking: ShapeParts(kind: .multiPoint)) }
    }

    /// Natural Earth's Russia has a vertex at longitude 180.00000000000006: within 1e-9 degrees of the range a
    /// coordinate is taken as the edge and counted; beyond that it is refused as before.
    @Test func coordinatesWithinTheToleranceAreTakenAsTheEdge() throws {
        func line(_ x: Double, _ y: Double) -> ShapeParts {
            var parts = ShapeParts(kind: .lineString)
            parts.append(longitude: 170, latitude: 60)
            parts.append(longitude: x, latitude: y)
            parts.endRing()
            return parts
        }
        let russia = try Shape(checking: line(180.00000000000006, 65))
        #expect(russia.vertex(1) == Coordinate(uncheckedLatitude: 65, longitude: 180) && russia.clampedVertexCount == 1)
        let south = try Shape(checking: line(-180 - 1e-9, -90 - 5e-10))
        #expect(south.vertex(1) == Coordinate(uncheckedLatitude: -90, longitude: -180) && south.clampedVertexCount == 1)
        #expect(try Shape(checking: line(179, 65)).clampedVertexCount == 0)
        // Equality is the geometry's: the count says how it was read, not what it is.
        #expect(south == Shape(unchecked: south.parts))
        #expect(throws: ShapeError.invalidPosition(path: "[1]", error: .outOfRange(field: .longitude, value: 180.000001, swapSuspected: false))) {
            try Shape(checking: line(180.000001, 65))
        }
    }

    @Test func extentAndRepresentativePoint() throws {
        var parts = ShapeParts(kind: .polygon)
        for (x, y) in [(0.0, 0.0), (2, 0), (2, 1), (1, 1), (1, 2), (0, 2), (0, 0)] { parts.append(longitude: x, latitude: y) }
        parts.endRing()
        parts.endPolygon()
        let l = try Shape(checking: parts)
        #expect(l.extent == BoundingBox(unchecked: 0, 0, 2, 2))
        let point = l.representativePoint
        #expect(abs(point.longitude - 2.5 / 3) < 1e-12 && abs(point.latitude - 2.5 / 3) < 1e-12)
        #expect(l.polygons == [Polygon(exterior: (0..<7).map(l.vertex))])
        var line = ShapeParts(kind: .lineString)
        for x in [0.0, 1, 2, 3] { line.append(longitude: x, latitude: 0) }
        line.endRing()
        #expect(try Shape(checking: line).representativePoint == Coordinate(uncheckedLatitude: 0, longitude: 2))
    }

    @Test func aPointShapeIsNotKeptBesideTheLocation() throws {
        var parts = ShapeParts(kind: .point)
        parts.append(longitude: 3, latitude: 4)
        parts.endRing()
        let location = try Coordinate(latitude: 4, longitude: 3)
        #expect(try Feature(id: "p", kind: .park, location: location, shape: Shape(checking: parts)).shape == nil)
    }

    /// The same geometry in big-endian WKB: every header's order byte 0, every number's bytes reversed.
    static func bigEndian(_ bytes: [UInt8]) throws -> [UInt8] {
        var out: [UInt8] = []
        var offset = 0
        func copyReversed(_ count: Int) {
            out.append(contentsOf: bytes[offset..<(offset + count)].reversed())
            offset += count
        }
        func geometry() {
            offset += 1
            out.append(0)
            let type = Int(bytes[offset])
            copyReversed(4)
            func count() -> Int {
                let value = Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24
                copyReversed(4)
                return value
            }
            func positions(_ n: Int) { for _ in 0..<(2 * n) { copyReversed(8) } }
            switch type {
            case 1: positions(1)
            case 2: positions(count())
            case 3: for _ in 0..<count() { positions(count()) }
            default: for _ in 0..<count() { geometry() }
            }
        }
        geometry()
        return out
    }
}
