import Testing
@testable import CairnCore

// MARK: - Known answers

/// Published examples: Wikipedia's "Geohash" article (42.6, -5.6 is `ezs42`, centre about 42.605, -5.603) and
/// geohash.org's documentation (57.64911, 10.40744 is `u4pruydqqvj`).
@Test func geohashPublishedExamples() throws {
    #expect(try Geohash.encode(coordinate(42.6, -5.6), precision: 5) == "ezs42")
    #expect(try Geohash.encode(coordinate(57.64911, 10.40744), precision: 11) == "u4pruydqqvj")
    let cell = try Geohash.decode("ezs42")
    #expect(abs(cell.center.latitude - 42.605) < 0.0005)
    #expect(abs(cell.center.longitude - -5.603) < 0.0005)
    #expect(cell.contains(try coordinate(42.6, -5.6)))
}

// The vectors below were computed with two independent Python libraries, python-geohash 0.9.2 and pygeohash
// 3.5.1 (`pip install python-geohash==0.9.2 pygeohash==3.5.1`): `geohash.encode(lat, lon, 12)` (both libraries
// agree on every row), `geohash.bbox(hash)` and `geohash.neighbors(hash)` from python-geohash. Points after the
// first nine are `round(random.Random(20261122).uniform(-90, 90), 5)` and likewise for longitude in [-180, 180].

private let encodeVectors: [(latitude: Double, longitude: Double, hash: String)] = [
    (42.6, -5.6, "ezs42e44yx96"),
    (57.64911, 10.40744, "u4pruydqqvj8"),
    (-33.8688, 151.2093, "r3gx2f77bn44"),
    (40.7128, -74.006, "dr5regw3ppyz"),
    (-17.8, 31.05, "ksy4dx9gmrw0"),
    (64.1466, -21.9426, "ge2kuttch2gt"),
    (-54.8019, -68.303, "4qr2jxx7b9ru"),
    (0.0, 0.0, "s00000000000"),
    (-90.0, -180.0, "000000000000"),
    (85.57313, 1.77311, "up1qb655s7we"),
    (22.76111, 60.57792, "tk516rx3pf7j"),
    (-83.48238, 46.08261, "j10v0dkrfskt"),
    (54.75188, -118.34125, "c3ez7p68c40q"),
    (-0.37742, -2.79604, "7zyjb77crec6"),
    (23.66108, -72.29637, "dkhwdg77u2zr"),
    (5.09658, 158.53224, "x8bszrz9szmg"),
    (36.72825, 6.27999, "sns2yyhvw65c"),
    (73.23218, -58.82688, "ftn0t7e867g1"),
    (65.94877, -39.17542, "g5spht976tc8"),
    (3.37355, -47.15183, "dbw7pn1h6er3"),
    (34.58117, -22.87923, "eqpsxr7cgm3d"),
    (-49.59325, 48.06865, "jp4jvgfd2spk"),
    (-39.91857, -101.0834, "3bbhgv136p1y"),
    (-0.70202, -103.66621, "3xyk100w6jzp"),
    (19.22808, -85.50239, "d57jqk759vvh"),
]

private let decodeVectors: [(hash: String, south: Double, west: Double, north: Double, east: Double)] = [
    ("ezs42", 42.5830078125, -5.625, 42.626953125, -5.5810546875),
    ("u4pruydqqvj", 57.649109959602356, 10.407439023256302, 57.64911130070686, 10.40744036436081),
    ("b", 45.0, -180.0, 90.0, -135.0),
    ("0", -90.0, -180.0, -45.0, -135.0),
    ("zzzzzzzzzzzz", 89.99999983236194, 179.99999966472387, 90.0, 180.0),
    ("s0000", 0.0, 0.0, 0.0439453125, 0.0439453125),
    ("7zzzz", -0.0439453125, -0.0439453125, 0.0, 0.0),
    ("9q8yy", 37.7490234375, -122.431640625, 37.79296875, -122.3876953125),
]

/// python-geohash's `neighbors` returns a list (sorted here); it omits the cells beyond a pole, as Cairn does.
private let neighborVectors: [(hash: String, neighbors: [String])] = [
    ("ezs42", ["ezefp", "ezefr", "ezefx", "ezs40", "ezs41", "ezs43", "ezs48", "ezs49"]),
    ("u4pruydqqvj", ["u4pruydqquu", "u4pruydqquv", "u4pruydqquy", "u4pruydqqvh", "u4pruydqqvk", "u4pruydqqvm",
                     "u4pruydqqvn", "u4pruydqqvq"]),
    ("b", ["8", "9", "c", "x", "z"]),
    ("0", ["1", "2", "3", "p", "r"]),
    ("zzzz", ["bpbn", "bpbp", "zzzw", "zzzx", "zzzy"]),
    ("0000", ["0001", "0002", "0003", "pbpb", "pbpc"]),
    ("pbpb", ["0000", "0001", "pbp8", "pbp9", "pbpc"]),
    ("xbpb", ["2pbp", "8000", "8001", "rzzx", "rzzz", "xbp8", "xbp9", "xbpc"]),
    ("8000", ["2pbp", "2pbr", "8001", "8002", "8003", "rzzz", "xbpb", "xbpc"]),
    ("9q8yyk", ["9q8yy5", "9q8yy7", "9q8yye", "9q8yyh", "9q8yyj", "9q8yym", "9q8yys", "9q8yyt"]),
    ("gzzzzz", ["gzzzzw", "gzzzzx", "gzzzzy", "upbpbn", "upbpbp"]),
    ("h00000", ["5bpbpb", "5bpbpc", "h00001", "h00002", "h00003"]),
    ("c2b2", ["c28p", "c28r", "c28x", "c2b0", "c2b1", "c2b3", "c2b8", "c2b9"]),
]

@Test func geohashEncodeMatchesIndependentVectorsAtEveryPrecision() throws {
    for vector in encodeVectors {
        let point = try coordinate(vector.latitude, vector.longitude)
        for precision in Geohash.precisionRange {
            #expect(try Geohash.encode(point, precision: precision) == String(vector.hash.prefix(precision)),
                    "\(point) at precision \(precision)")
        }
    }
}

@Test func geohashDecodeMatchesIndependentVectorsExactly() throws {
    for vector in decodeVectors {
        let cell = try Geohash.decode(vector.hash)
        #expect(cell.hash == vector.hash)
        #expect(cell.precision == vector.hash.count)
        #expect(cell.south == vector.south && cell.west == vector.west, "\(cell)")
        #expect(cell.north == vector.north && cell.east == vector.east, "\(cell)")
        #expect(cell.center.latitude == (vector.south + vector.north) / 2)
        #expect(cell.center.longitude == (vector.west + vector.east) / 2)
    }
}

@Test func geohashNeighborsMatchIndependentVectors() throws {
    for vector in neighborVectors {
        let neighbors = try Geohash.neighbors(vector.hash)
        #expect(neighbors.values.sorted() == vector.neighbors, "\(vector.hash)")
    }
}

// MARK: - Errors and input forms

@Test func geohashRejectsBadPrecisionAndText() throws {
    let point = try coordinate(1, 2)
    #expect(throws: GeohashError.precisionOutOfRange(0)) { try Geohash.encode(point, precision: 0) }
    #expect(throws: GeohashError.precisionOutOfRange(13)) { try Geohash.encode(point, precision: 13) }
    #expect(throws: GeohashError.empty) { try Geohash.decode("") }
    #expect(throws: GeohashError.tooLong(length: 13)) { try Geohash.decode("0123456789bcd") }
    #expect(throws: GeohashError.invalidCharacter("a", position: 5)) { try Geohash.decode("ezs4a") }
    for letter in ["a", "i", "l", "o", "A", "I", "L", "O", " ", "-", "é", "\u{0}"] {
        #expect(throws: GeohashError.invalidCharacter(Character(letter), position: 2)) {
            try Geohash.decode("u" + letter + "4")
        }
    }
    #expect(throws: GeohashError.invalidCharacter("!", position: 1)) { try Geohash.neighbors("!") }
    #expect(GeohashError.invalidCharacter("a", position: 5).description.contains("\"a\" at position 5"))
    #expect(GeohashError.precisionOutOfRange(13).description == "geohash precision must be in 1...12, got 13")
}

@Test func geohashAcceptsUpperCaseAndAnswersLowerCase() throws {
    let lower = try Geohash.decode("ezs42")
    let upper = try Geohash.decode("EZS42")
    let mixed = try Geohash.decode("eZs42")
    #expect(upper == lower && mixed == lower)
    #expect(upper.hash == "ezs42")
    #expect(try Geohash.neighbors("EZS42") == Geohash.neighbors("ezs42"))
}

@Test func geohashPrecisionOneTilesTheGlobe() throws {
    // The 32 cells of 45° x 45° cover the globe once: 8 columns, 4 rows.
    var seen = Set<[Double]>()
    for character in "0123456789bcdefghjkmnpqrstuvwxyz" {
        let cell = try Geohash.decode(String(character))
        #expect(cell.latitudeSpanDegrees == 45 && cell.longitudeSpanDegrees == 45)
        seen.insert([cell.south, cell.west])
    }
    #expect(seen.count == 32)
}

// MARK: - Boundaries

@Test func geohashEdgesOfTheWorldStayInTheLastCell() throws {
    for precision in Geohash.precisionRange {
        let zs = String(repeating: "z", count: precision)
        let zeros = String(repeating: "0", count: precision)
        #expect(try Geohash.encode(coordinate(90, 180), precision: precision) == zs)
        #expect(try Geohash.encode(coordinate(-90, -180), precision: precision) == zeros)
        #expect(try Geohash.encode(coordinate(0, 0), precision: precision) == "s" + zeros.dropFirst())
        #expect(try Geohash.encode(coordinate(-0.0, -0.0), precision: precision) == "s" + zeros.dropFirst())
        let top = try Geohash.decode(zs)
        #expect(top.north == 90 && top.east == 180)
        #expect(top.contains(try coordinate(90, 180)))
    }
}

/// A point on a boundary between cells belongs to the cell north or east of it; every corner of a random cell
/// therefore encodes to the cell whose south-west corner it is.
@Test func geohashCellCornersEncodeToTheCellTheyStart() throws {
    var random = GeohashRandom(seed: 0x9e0_ba5e)
    for _ in 0..<2_000 {
        let precision = Int(random.next(below: 12)) + 1
        let cell = try Geohash.decode(randomHash(precision: precision, using: &random))
        #expect(try Geohash.encode(coordinate(cell.south, cell.west), precision: precision) == cell.hash)
        let neighbors = try Geohash.neighbors(cell.hash)
        let northEast = try Geohash.encode(coordinate(cell.north, cell.east), precision: precision)
        if cell.north == 90 && cell.east == 180 {
            #expect(northEast == cell.hash)
        } else if cell.north == 90 {
            #expect(northEast == neighbors[.east])
        } else if cell.east == 180 {
            #expect(northEast == neighbors[.north])
        } else {
            #expect(northEast == neighbors[.northEast])
        }
    }
}

// MARK: - Round trip

@Test func geohashRoundTripContainsThePointAtEveryPrecision() throws {
    var random = GeohashRandom(seed: 42)
    for index in 0..<3_000 {
        let point = try randomCoordinate(index: index, using: &random)
        var previous = ""
        for precision in Geohash.precisionRange {
            let hash = try Geohash.encode(point, precision: precision)
            #expect(hash.count == precision)
            #expect(hash.hasPrefix(previous), "prefix property at \(point)")
            previous = hash
            let cell = try Geohash.decode(hash)
            #expect(cell.hash == hash)
            // Half-open containment names exactly one cell per precision, so this is a complete oracle.
            let inLatitude = cell.south <= point.latitude
                && (point.latitude < cell.north || (cell.north == 90 && point.latitude == 90))
            let inLongitude = cell.west <= point.longitude
                && (point.longitude < cell.east || (cell.east == 180 && point.longitude == 180))
            #expect(inLatitude && inLongitude, "\(point) not in \(cell)")
            #expect(cell.contains(point))
            #expect(cell.latitudeSpanDegrees == 180 / Double(1 << (precision * 5 / 2)))
            #expect(cell.longitudeSpanDegrees == 360 / Double(1 << (precision * 5 - precision * 5 / 2)))
        }
    }
}

// MARK: - Neighbours

@Test func geohashNeighborsShareEdgesAndWrapTheAntimeridian() throws {
    var random = GeohashRandom(seed: 7)
    for index in 0..<2_000 {
        let precision = Int(random.next(below: 12)) + 1
        // Every fourth hash sits on an edge of the world: poles or antimeridian.
        var hash = randomHash(precision: precision, using: &random)
        if index % 4 == 0 {
            let edge = try [coordinate(90, random.uniform(-180, 180)), coordinate(-90, random.uniform(-180, 180)),
                            coordinate(random.uniform(-90, 90), 180), coordinate(random.uniform(-90, 90), -180)]
            hash = try Geohash.encode(edge[Int(random.next(below: 4))], precision: precision)
        }
        let cell = try Geohash.decode(hash)
        let neighbors = try Geohash.neighbors(hash)
        for direction in GeohashDirection.allCases {
            let beyondPole = (direction.rowStep == 1 && cell.north == 90) || (direction.rowStep == -1 && cell.south == -90)
            guard let neighborHash = neighbors[direction] else {
                #expect(beyondPole, "\(hash) lacks \(direction)")
                continue
            }
            #expect(!beyondPole, "\(hash) has \(direction) beyond a pole")
            let neighbor = try Geohash.decode(neighborHash)
            #expect(neighbor.precision == precision)
            #expect(neighbor.latitudeSpanDegrees == cell.latitudeSpanDegrees)
            #expect(neighbor.longitudeSpanDegrees == cell.longitudeSpanDegrees)
            switch direction.rowStep {
            case 1: #expect(neighbor.south == cell.north)
            case -1: #expect(neighbor.north == cell.south)
            default: #expect(neighbor.south == cell.south)
            }
            switch direction.columnStep {
            case 1: #expect(neighbor.west == cell.east || (cell.east == 180 && neighbor.west == -180))
            case -1: #expect(neighbor.east == cell.west || (cell.west == -180 && neighbor.east == 180))
            default: #expect(neighbor.west == cell.west)
            }
            // Independent oracle: encode the point one cell-size away from the centre, longitude wrapped.
            var longitude = cell.center.longitude + Double(direction.columnStep) * cell.longitudeSpanDegrees
            if longitude > 180 { longitude -= 360 }
            if longitude < -180 { longitude += 360 }
            let latitude = cell.center.latitude + Double(direction.rowStep) * cell.latitudeSpanDegrees
            #expect(try Geohash.encode(coordinate(latitude, longitude), precision: precision) == neighborHash)
            // And back again.
            #expect(try Geohash.neighbors(neighborHash)[direction.opposite] == hash)
        }
    }
}

// MARK: - Cover

@Test func geohashCoverKnownBoxes() throws {
    let world = try Geohash.cover(west: -180, south: -90, east: 180, north: 90, maxCells: 32)
    #expect(world == "0123456789bcdefghjkmnpqrstuvwxyz".map(String.init))
    #expect(throws: GeohashError.tooManyCells(needed: 32, maxCells: 31)) {
        try Geohash.cover(west: -180, south: -90, east: 180, north: 90, maxCells: 31)
    }
    #expect(throws: GeohashError.tooManyCells(needed: 1, maxCells: 0)) {
        try Geohash.cover(west: 1, south: 1, east: 2, north: 2, maxCells: 0)
    }
    // One cell: the box is the cell `ezs42` shrunk a little.
    let cell = try Geohash.decode("ezs42")
    let inner = try Geohash.cover(west: cell.west + 1e-9, south: cell.south + 1e-9, east: cell.east - 1e-9,
                                  north: cell.north - 1e-9, maxCells: 1)
    #expect(inner == ["ezs42"])
    // The exact cell also needs the cells whose south or west edge is its north or east edge.
    let exact = try Geohash.cover(west: cell.west, south: cell.south, east: cell.east, north: cell.north, maxCells: 4)
    #expect(exact == ["ezs42", "ezs43", "ezs48", "ezs49"])
    // Across the antimeridian: columns at both ends, none in between (precision 2 would need 8 cells).
    let crossing = try Geohash.cover(west: 170, south: -10, east: -170, north: 10, maxCells: 7)
    #expect(crossing == ["2", "8", "r", "x"])
    // A box reaching 180 also gets the cells at -180 (same meridian).
    let touching = try Geohash.cover(west: 170, south: 50, east: 180, north: 60, maxCells: 2)
    #expect(touching == ["b", "z"])
    // North polar cap.
    let polar = try Geohash.cover(west: -180, south: 80, east: 180, north: 90, maxCells: 8)
    #expect(polar == ["b", "c", "f", "g", "u", "v", "y", "z"])
    // A single point gives its own cell at precision 12.
    let point = try Geohash.cover(west: 10.40744, south: 57.64911, east: 10.40744, north: 57.64911, maxCells: 1)
    #expect(point == [try Geohash.encode(coordinate(57.64911, 10.40744), precision: 12)])
}

@Test func geohashCoverRejectsInvalidBoxes() throws {
    #expect(throws: GeohashError.invalidCoordinate(.notFinite(field: .latitude, value: .infinity))) {
        try Geohash.cover(west: 0, south: 0, east: 1, north: .infinity, maxCells: 10)
    }
    #expect(throws: GeohashError.invalidCoordinate(.outOfRange(field: .longitude, value: 181, swapSuspected: false))) {
        try Geohash.cover(west: 181, south: 0, east: 1, north: 1, maxCells: 10)
    }
    #expect(throws: GeohashError.southAboveNorth(south: 5, north: 4)) {
        try Geohash.cover(west: 0, south: 5, east: 1, north: 4, maxCells: 10)
    }
    #expect(throws: GeohashError.self) { try Geohash.cover(west: .nan, south: 0, east: 1, north: 1, maxCells: 10) }
}

/// Random boxes of every shape, each checked two ways: the exact cell set against a brute-force descent from the
/// 32 top cells (keeping each cell that a point of the box can encode to), and thousands of sampled box points
/// whose geohash must be in the cover.
@Test func geohashCoverMatchesOracleAndContainsSampledPoints() throws {
    var random = GeohashRandom(seed: 2026)
    var sampled = 0
    var precisionsSeen = Set<Int>()
    for index in 0..<240 {
        let box = try randomBox(kind: index % 8, using: &random)
        let maxCells = Int(random.next(below: 48)) + 1
        let expected = oracleCover(box, maxCells: maxCells)
        guard let expected else {
            #expect(throws: GeohashError.self) {
                try Geohash.cover(west: box.west, south: box.south, east: box.east, north: box.north, maxCells: maxCells)
            }
            continue
        }
        let cover = try Geohash.cover(west: box.west, south: box.south, east: box.east, north: box.north,
                                      maxCells: maxCells)
        #expect(cover == expected, "box \(box) maxCells \(maxCells)")
        #expect(cover.count <= maxCells)
        #expect(cover == cover.sorted() && Set(cover).count == cover.count)
        let precision = try #require(cover.first?.count)
        precisionsSeen.insert(precision)
        #expect(cover.allSatisfy { $0.count == precision })
        let cells = Set(cover)
        let decoded = try cover.map(Geohash.decode)
        for point in try samplePoints(in: box, count: 80, using: &random) {
            sampled += 1
            #expect(cells.contains(try Geohash.encode(point, precision: precision)), "\(point) in \(box)")
            #expect(decoded.contains { $0.contains(point) }, "\(point) in \(box)")
        }
    }
    #expect(sampled > 10_000)
    #expect(precisionsSeen.count >= 8, "precisions seen: \(precisionsSeen.sorted())")
}

/// Large maxCells on small boxes: no oracle enumeration, just points and the count bound.
@Test func geohashCoverWithManyCellsContainsSampledPoints() throws {
    var random = GeohashRandom(seed: 99)
    for index in 0..<60 {
        let box = try randomBox(kind: index % 8, using: &random)
        let maxCells = Int(random.next(below: 2_000)) + 32
        let cover = try Geohash.cover(west: box.west, south: box.south, east: box.east, north: box.north,
                                      maxCells: maxCells)
        #expect(cover.count <= maxCells)
        let precision = try #require(cover.first?.count)
        let cells = Set(cover)
        #expect(cells.count == cover.count)
        for point in try samplePoints(in: box, count: 100, using: &random) {
            #expect(cells.contains(try Geohash.encode(point, precision: precision)), "\(point) in \(box)")
        }
        // The next precision would need more than maxCells: count its cells by encoding the box's corners'
        // rows and columns (an over-fine cover must at least hold the cells of the box's edges).
        if precision < Geohash.maxPrecision {
            let finer = oracleCount(box, precision: precision + 1, limit: maxCells)
            #expect(finer > maxCells, "precision \(precision + 1) fits \(box) in \(finer) <= \(maxCells) cells")
        }
    }
}

// MARK: - Helpers

private struct Box: CustomStringConvertible {
    let west, south, east, north: Double
    var crossesAntimeridian: Bool { west > east }
    var description: String { "[w \(west), s \(south), e \(east), n \(north)]" }

    func contains(_ point: Coordinate) -> Bool {
        guard point.latitude >= south && point.latitude <= north else { return false }
        let lon = point.longitude
        let direct = crossesAntimeridian ? (lon >= west || lon <= east) : (lon >= west && lon <= east)
        // 180 and -180 are one meridian.
        let aliased = (lon == -180 && containsLongitude180) || (lon == 180 && containsLongitudeMinus180)
        return direct || aliased
    }

    var containsLongitude180: Bool { crossesAntimeridian || east == 180 }
    var containsLongitudeMinus180: Bool { crossesAntimeridian || west == -180 }

    /// Whether some point of the box encodes to `cell`: the cell's half-open region (closed at 90 and 180)
    /// meets the closed box.
    func meetsRegion(of cell: GeohashCell) -> Bool {
        let latitudeMeets = cell.south <= north && (south < cell.north || cell.north == 90)
        func meets(_ low: Double, _ high: Double) -> Bool {
            cell.west <= high && (low < cell.east || cell.east == 180)
        }
        let longitudeMeets = crossesAntimeridian ? (meets(west, 180) || meets(-180, east)) : meets(west, east)
        let aliased = (cell.west == -180 && containsLongitude180) || (cell.east == 180 && containsLongitudeMinus180)
        return latitudeMeets && (longitudeMeets || aliased)
    }
}

/// Brute force: descend from the 32 top cells, keeping the cells a point of the box encodes to, until a level
/// needs more than `maxCells`; nil when even the top level does.
private func oracleCover(_ box: Box, maxCells: Int) -> [String]? {
    let alphabet = "0123456789bcdefghjkmnpqrstuvwxyz".map(String.init)
    var level = alphabet.filter { box.meetsRegion(of: decodeOrFail($0)) }
    guard level.count <= maxCells else { return nil }
    for _ in 2...Geohash.maxPrecision {
        let next = level.flatMap { parent in alphabet.map { parent + $0 } }.filter { box.meetsRegion(of: decodeOrFail($0)) }
        if next.count > maxCells { break }
        level = next
    }
    return level.sorted()
}

/// Cells at `precision` that a point of the box encodes to. The brute-force predicate is a product of a latitude
/// and a longitude condition, so the count is rows times columns: rows found by walking north from the box's
/// south-west cell, columns by walking east (wrapping) along its row, plus the cells at ±180 that the predicate
/// admits through the aliased meridian.
private func oracleCount(_ box: Box, precision: Int, limit: Int) -> Int {
    guard let start = try? Geohash.encode(Coordinate(latitude: box.south, longitude: box.west), precision: precision)
    else { return 0 }
    var rows = 0
    var hash: String? = start
    while let current = hash, box.meetsRegion(of: decodeOrFail(current)), rows <= limit {
        rows += 1
        hash = (try? Geohash.neighbors(current))?[.north]
    }
    var columns = Set<String>()
    hash = start
    while let current = hash, !columns.contains(current), box.meetsRegion(of: decodeOrFail(current)),
          columns.count <= limit {
        columns.insert(current)
        hash = (try? Geohash.neighbors(current))?[.east]
    }
    for longitude in [-180.0, 180.0] {
        if let edge = try? Geohash.encode(Coordinate(latitude: box.south, longitude: longitude), precision: precision),
           box.meetsRegion(of: decodeOrFail(edge)) {
            columns.insert(edge)
        }
    }
    return rows * columns.count
}

private func decodeOrFail(_ hash: String) -> GeohashCell {
    do { return try Geohash.decode(hash) } catch {
        Issue.record("decode \(hash): \(error)")
        return GeohashCell(hash: hash, south: 0, west: 0, north: 0, east: 0)
    }
}

/// Boxes of eight kinds: small, medium, huge, crossing the antimeridian, polar, touching ±180,
/// aligned to cell edges, degenerate (a line or a point).
private func randomBox(kind: Int, using random: inout GeohashRandom) throws -> Box {
    func span(_ low: Double, _ high: Double) -> Double { pow10(random.uniform(low, high)) }
    switch kind {
    case 0, 1, 2:
        let exponents: [(Double, Double)] = [(-7, -3), (-3, 0.5), (0.5, 2.4)]
        let (low, high) = exponents[kind]
        let height = min(180, span(low, high)), width = min(360, span(low, high))
        let south = random.uniform(-90, 90 - height), west = random.uniform(-180, 180 - width)
        return Box(west: west, south: south, east: min(180, west + width), north: min(90, south + height))
    case 3:
        let south = random.uniform(-90, 80)
        return Box(west: random.uniform(100, 180), south: south, east: random.uniform(-180, -100),
                   north: min(90, south + span(-4, 1.5)))
    case 4:
        let height = span(-5, 1.5), west = random.uniform(-180, 180), width = span(-5, 2.5)
        let east = west + width > 180 ? west + width - 360 : west + width
        return random.next(below: 2) == 0
            ? Box(west: west, south: 90 - height, east: east, north: 90)
            : Box(west: west, south: -90, east: east, north: -90 + height)
    case 5:
        let south = random.uniform(-90, 80), width = span(-5, 1.5), north = min(90, south + span(-5, 1.5))
        return random.next(below: 2) == 0
            ? Box(west: 180 - width, south: south, east: 180, north: north)
            : Box(west: -180, south: south, east: -180 + width, north: north)
    case 6:
        let precision = Int(random.next(below: 8)) + 1
        let a = try Geohash.decode(randomHash(precision: precision, using: &random))
        let b = try Geohash.decode(randomHash(precision: precision, using: &random))
        let nearB = try Geohash.neighbors(a.hash)[.northEast].map(Geohash.decode) ?? b
        let other = random.next(below: 2) == 0 ? nearB : b
        return Box(west: a.west, south: min(a.south, other.south), east: other.east, north: max(a.north, other.north))
    default:
        let point = try randomCoordinate(index: Int(random.next(below: 1_000)), using: &random)
        switch random.next(below: 3) {
        case 0: return Box(west: point.longitude, south: point.latitude, east: point.longitude, north: point.latitude)
        case 1: return Box(west: point.longitude, south: -90, east: point.longitude, north: 90)
        default: return Box(west: -180, south: point.latitude, east: 180, north: point.latitude)
        }
    }
}

/// Corners, edge midpoints, the ±180 aliases when the box has them, and uniform points; all inside the box.
private func samplePoints(in box: Box, count: Int, using random: inout GeohashRandom) throws -> [Coordinate] {
    var points: [Coordinate] = []
    let eastUnwrapped = box.crossesAntimeridian ? box.east + 360 : box.east
    var longitudes = [box.west, box.east]
    if box.containsLongitude180 { longitudes += [180, -180] }
    if box.containsLongitudeMinus180 { longitudes += [180, -180] }
    for latitude in [box.south, box.north, (box.south + box.north) / 2] {
        for longitude in longitudes { points.append(try coordinate(latitude, longitude)) }
    }
    while points.count < count {
        let latitude = random.next(below: 8) == 0 ? box.north : random.uniform(box.south, box.north)
        var longitude = random.next(below: 8) == 0 ? box.east : random.uniform(box.west, eastUnwrapped)
        if longitude > 180 { longitude -= 360 }
        points.append(try coordinate(min(latitude, box.north), longitude))
    }
    return points.filter(box.contains)
}

/// Uniform points, with every tenth on an exact cell boundary of a random precision and a few at the poles
/// and the antimeridian.
private func randomCoordinate(index: Int, using random: inout GeohashRandom) throws -> Coordinate {
    switch index % 10 {
    case 0:
        let cell = try Geohash.decode(randomHash(precision: Int(random.next(below: 12)) + 1, using: &random))
        return try coordinate(random.next(below: 2) == 0 ? cell.south : cell.north,
                              random.next(below: 2) == 0 ? cell.west : cell.east)
    case 1:
        let latitudes = [90.0, -90, 0, -0.0, 45, -45]
        let longitudes = [180.0, -180, 0, -0.0, 90, -90]
        return try coordinate(latitudes[Int(random.next(below: 6))], longitudes[Int(random.next(below: 6))])
    default:
        return try coordinate(random.uniform(-90, 90), random.uniform(-180, 180))
    }
}

private func randomHash(precision: Int, using random: inout GeohashRandom) -> String {
    let alphabet = Array("0123456789bcdefghjkmnpqrstuvwxyz")
    return String((0..<precision).map { _ in alphabet[Int(random.next(below: 32))] })
}

private func coordinate(_ latitude: Double, _ longitude: Double) throws -> Coordinate {
    try Coordinate(latitude: latitude, longitude: longitude)
}

private func pow10(_ exponent: Double) -> Double {
    // 10^x = 2^(x log2 10), without Foundation.
    var result = 1.0
    var remaining = exponent * 3.321928094887362
    while remaining >= 1 { result *= 2; remaining -= 1 }
    while remaining < 0 { result /= 2; remaining += 1 }
    // 2^f for f in [0, 1) by a short series of exp(f ln 2).
    let x = remaining * 0.6931471805599453
    var term = 1.0, sum = 1.0
    for n in 1...20 { term *= x / Double(n); sum += term }
    return result * sum
}

extension GeohashDirection {
    fileprivate var opposite: GeohashDirection {
        switch self {
        case .north: .south
        case .northEast: .southWest
        case .east: .west
        case .southEast: .northWest
        case .south: .north
        case .southWest: .northEast
        case .west: .east
        case .northWest: .southEast
        }
    }
}

/// The shared seeded generator (SplitMix64) with the range helpers these tests were written with.
private struct GeohashRandom {
    private var base: SeededRandom
    init(seed: UInt64) { base = SeededRandom(seed: seed) }

    mutating func next() -> UInt64 { base.next() }

    /// Uniform in 0 ..< bound (bound > 0; the modulo bias is negligible for test use).
    mutating func next(below bound: UInt64) -> UInt64 { next() % bound }

    /// Uniform in low ... high.
    mutating func uniform(_ low: Double, _ high: Double) -> Double {
        let unit = Double(next() >> 11) / Double(1 << 53)
        return min(high, low + (high - low) * unit)
    }
}
