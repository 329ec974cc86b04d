import CairnCore
import CairnTestSupport
import Testing
@testable import CairnIO

/// Cluster tiles as Mapbox Vector Tiles: read back with the test decoder, each is the JSON tile of the same tile
/// (same features, positions, ids and properties, typed), across zooms, the antimeridian, the buffer and the
/// awkward ids; a cluster in the buffer of two neighbouring tiles keeps its id and place in both.
@Suite struct ClusterVectorTileWriterTests {
    let features: [Feature]
    let index: ClusterIndex

    init() throws {
        let t0 = Timestamp(secondsSince1970: 1_780_000_000)
        var features = try [
            // Three at one spot (identical points), two close by: Helsinki.
            Feature(id: "1", kind: .event, location: Coordinate(latitude: 60.17, longitude: 24.94),
                    timeWindow: TimeWindow(start: t0, end: Timestamp(secondsSince1970: 1_780_003_600)),
                    attributes: ["category": .string("football"), "price": .number(10)]),
            Feature(id: "2", kind: .event, location: Coordinate(latitude: 60.17, longitude: 24.94),
                    timeWindow: TimeWindow(instant: t0), attributes: ["category": .string("football"), "price": .number(20.5)]),
            Feature(id: "3", kind: .event, location: Coordinate(latitude: 60.17, longitude: 24.94),
                    timeWindow: TimeWindow(instant: t0), attributes: ["category": .string("tennis")]),
            Feature(id: "4", kind: .park, location: Coordinate(latitude: 60.171, longitude: 24.941),
                    attributes: ["fenced": .bool(true), "rating": .number(-2)]),
            Feature(id: "5", kind: .park, location: Coordinate(latitude: 60.169, longitude: 24.939),
                    attributes: ["fenced": .bool(false), "amenities": .set(["swimming", "trails"])]),
            // The antimeridian pair.
            Feature(id: "fiji-east", kind: .place, location: Coordinate(latitude: -16.8, longitude: 179.99), radiusMeters: 150),
            Feature(id: "fiji-west", kind: .place, location: Coordinate(latitude: -16.8, longitude: -179.99), radiusMeters: 150.5),
            // Lone points with every kind of id and attribute.
            Feature(id: "007", kind: .place, location: Coordinate(latitude: -33.9, longitude: 151.2)),
            Feature(id: "18446744073709551615", kind: .place, location: Coordinate(latitude: 40.7, longitude: -74)),
            Feature(id: "18446744073709551616", kind: .place, location: Coordinate(latitude: -22.9, longitude: -43.2)),
            Feature(id: "4.0", kind: .place, location: Coordinate(latitude: 35.7, longitude: 139.7)),
            Feature(id: "0", kind: .sighting, location: Coordinate(latitude: 64.1, longitude: -21.9),
                    timeWindow: TimeWindow(instant: t0), attributes: ["seen": .time(t0), "note": .string("\"quoted\" ☃")]),
        ]
        // 1,500 points around Nairobi (far from the rest even at zoom 0): a cluster whose count is abbreviated (`1.5k`).
        var random = SplitMix64(seed: 18)
        for n in 0..<1500 {
            features.append(try Feature(id: "b\(n)", kind: .user, location: Coordinate(
                latitude: -1.3 + Double.random(in: -0.05...0.05, using: &random),
                longitude: 36.8 + Double.random(in: -0.05...0.05, using: &random)), attributes: ["price": .number(1)]))
        }
        self.features = features
        index = ClusterIndex(features: features, options: try ClusterOptions(numericAttributes: ["price"], categoryAttribute: "category"))
    }

    /// The tile (z, x, y) holding `c`.
    static func tile(of c: Coordinate, zoom z: Int) -> (x: Int, y: Int) {
        let n = Double(1 << z)
        return (min(Int(WebMercator.x(longitude: c.longitude) * n), (1 << z) - 1),
                min(Int(WebMercator.y(latitude: c.latitude) * n), (1 << z) - 1))
    }

    func decoded(_ tile: [ClusterTileFeature], offset: UInt64 = 0) throws -> VectorTileTestDecoder {
        try VectorTileTestDecoder(try ClusterVectorTileWriter(index: index, features: features, clusterIDOffset: offset).encodeTile(tile))
    }

    /// Every tile of interest, at every zoom from 0 to 20: the vector tile says what the JSON tile says.
    @Test func sameFeaturesAsTheJSONTile() throws {
        var checked = 0, sawIdentical = false, sawAbbreviated = false, sawNegative = false
        for z in 0...20 {
            var tiles = Set<[Int]>()
            for c in [features[0].location, features[5].location, features[6].location, features[7].location,
                      features[12].location, features[13].location] {
                let t = Self.tile(of: c, zoom: z)
                tiles.insert([t.x, t.y])
            }
            for t in tiles {
                let entries = index.tile(z: z, x: t[0], y: t[1])
                let json = ClusterWriter(index: index, features: features).encodeTile(entries)
                let tile = try decoded(entries)
                let problems = try tile.mismatches(againstJSONTile: json)
                #expect(problems.isEmpty, "\(z)/\(t[0])/\(t[1]): \(problems.prefix(5))")
                for layer in tile.layers {
                    #expect(layer.version == 2 && layer.extent == 4096)
                    #expect(Set(layer.keys).count == layer.keys.count)
                    for f in layer.features {
                        if f.property("identical_points") == .bool(true) { sawIdentical = true }
                        if case .string(let s)? = f.property("point_count_abbreviated"), s.hasSuffix("k") { sawAbbreviated = true }
                        if f.points.contains(where: { $0.x < 0 || $0.y < 0 }) { sawNegative = true }
                    }
                }
                checked += 1
            }
        }
        #expect(checked > 40)
        #expect(sawIdentical && sawAbbreviated && sawNegative, "identical \(sawIdentical), abbreviated \(sawAbbreviated), buffer \(sawNegative)")
    }

    /// Typed properties on the world tile: a cluster's counts, aggregates and expansion zoom; points' ids.
    @Test func typedPropertiesAndIds() throws {
        let tile = try decoded(index.tile(z: 0, x: 0, y: 0), offset: 1 << 40)
        let clusters = try #require(tile.layer("clusters")), points = try #require(tile.layer("points"))
        let helsinki = try #require(clusters.features.first { $0.property("point_count") == .uint(5) })
        #expect(helsinki.property("cluster") == .bool(true))
        #expect(helsinki.id.map { $0 >> 40 } == 1, "the offset is added to the id")
        #expect(helsinki.property("cluster_id").map { if case .uint(let u) = $0 { u == helsinki.id } else { false } } == true)
        #expect(helsinki.property("point_count_abbreviated") == .uint(5))
        #expect(helsinki.property("price_sum") == .double(30.5))
        #expect(helsinki.property("price_min") == .uint(10) && helsinki.property("price_max") == .double(20.5))
        #expect(helsinki.property("category_counts") == .string(#"{"football":2,"tennis":1}"#))
        if case .uint(let z)? = helsinki.property("expansion_zoom") { #expect(z > 0) } else { Issue.record("expansion_zoom") }
        let nairobi = try #require(clusters.features.first { $0.property("point_count") == .uint(1500) })
        #expect(nairobi.property("point_count_abbreviated") == .string("1.5k"))
        #expect(nairobi.property("price_sum") == .uint(1500) && nairobi.property("price_mean") == .uint(1))
        #expect(nairobi.property("category_counts") == .string("{}"))
        // Point ids: plain decimals as feature ids, anything else as an id property.
        let byId = Dictionary(points.features.compactMap { f in f.id.map { ($0, f) } }, uniquingKeysWith: { a, _ in a })
        #expect(byId[.max]?.property("id") == nil && byId[0]?.property("kind") == .string("sighting"))
        let named = Set(points.features.compactMap { if case .string(let s)? = $0.property("id") { s } else { nil } })
        #expect(named == ["007", "18446744073709551616", "4.0"])
        #expect(points.features.filter { $0.property("id") != nil }.allSatisfy { $0.id == nil })
        let sighting = try #require(byId[0])
        let t0 = Timestamp(secondsSince1970: 1_780_000_000).iso8601
        #expect(sighting.property("time") == .string(t0) && sighting.property("seen") == .string(t0))
        #expect(sighting.property("note") == .string("\"quoted\" ☃"))
        let radius = Set(points.features.compactMap { $0.property("radiusMeters") }.map(\.description))
        #expect(radius.isSubset(of: ["uint(150)", "double(150.5)"]))
    }

    /// A cluster in the buffer of two neighbouring tiles: same id, the same place (one tile extent apart).
    @Test func clusterOnATileEdgeIsTheSameInBothTiles() throws {
        let z = 10, column = 600
        let edge = Double(column) / Double(1 << z) * 360 - 180 // the longitude of tile column 600's west edge
        var points: [Feature] = []
        for (n, dx) in [0.01, 0.012, 0.011].enumerated() {
            points.append(try Feature(id: "\(n)", kind: .place, location: Coordinate(latitude: 10, longitude: edge + dx)))
        }
        let index = ClusterIndex(features: points)
        let row = Self.tile(of: points[0].location, zoom: z).y
        let writer = try ClusterVectorTileWriter(index: index, features: points)
        let west = try VectorTileTestDecoder(try writer.encodeTile(index.tile(z: z, x: column - 1, y: row)))
        let east = try VectorTileTestDecoder(try writer.encodeTile(index.tile(z: z, x: column, y: row)))
        let a = try #require(west.layer("clusters")?.features.first), b = try #require(east.layer("clusters")?.features.first)
        #expect(a.id == b.id && a.property("point_count") == .uint(3))
        let pa = try #require(a.points.first), pb = try #require(b.points.first)
        #expect(pa.x - 4096 == pb.x && pa.y == pb.y, "\(pa) in the west tile, \(pb) in the east one")
        #expect(pa.x > 4096 && pb.x >= 0)
    }

    /// Points are written from their exact Web Mercator position at the layer's extent, rounded once: within half
    /// a unit of exact (scaling the 512-unit JSON integers by 8 would be up to 4 units off), at every zoom.
    @Test func positionsWithinHalfAUnitOfExact() throws {
        let byID = Dictionary(features.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var checked = 0
        for extent: UInt32 in [4096, 1000] {
            let writer = try ClusterVectorTileWriter(index: index, features: features, extent: extent)
            for z in [0, 3, 9, 14, 20] {
                var tiles = Set<[Int]>()
                for f in features.prefix(20) { let t = Self.tile(of: f.location, zoom: z); tiles.insert([t.x, t.y]) }
                for t in tiles {
                    let tile = try VectorTileTestDecoder(try writer.encodeTile(z: z, x: t[0], y: t[1]))
                    for p in tile.layer("points")?.features ?? [] {
                        guard case .string(let text)? = p.property("id") ?? p.id.map({ .string(String($0)) }),
                              let f = byID[text], let got = p.points.first else { Issue.record("unknown point"); continue }
                        let n = Double(1 << z), size = Double(extent)
                        var ex = (WebMercator.x(longitude: f.location.longitude) * n - Double(t[0])) * size
                        if ex < -size / 2 { ex += n * size } else if ex > size * 1.5 { ex -= n * size } // across ±180
                        let ey = (WebMercator.y(latitude: f.location.latitude) * n - Double(t[1])) * size
                        #expect(abs(Double(got.x) - ex) <= 0.5 && abs(Double(got.y) - ey) <= 0.5, "\(text) at \(z)/\(t): \(got) vs \(ex), \(ey)")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked > 40)
    }

    @Test func emptyTilesAndExtents() throws {
        // Nothing in the tile: zero bytes, both layers left out.
        let writer = try ClusterVectorTileWriter(index: index, features: features)
        #expect(try writer.encodeTile(index.tile(z: 12, x: 0, y: 4095)).isEmpty)
        #expect(try writer.encodeTile([]).isEmpty)
        // Layer extents: whole numbers from 1 to 2^30, 4096 unless asked; the clustering's extent is its own.
        #expect(ClusterVectorTileWriter.layerExtent(4096) == 4096 && ClusterVectorTileWriter.layerExtent(1) == 1)
        for bad in [0, -1, (1 << 30) + 1] {
            #expect(ClusterVectorTileWriter.layerExtent(bad) == nil, "\(bad)")
        }
        #expect(throws: VectorTileError.extentOutOfRange(0)) {
            try ClusterVectorTileWriter(index: self.index, features: self.features, extent: 0)
        }
        let fractional = ClusterIndex(features: features, options: try ClusterOptions(extent: 512.5))
        let tile = try VectorTileTestDecoder(try ClusterVectorTileWriter(index: fractional, features: features).encodeTile(z: 0, x: 0, y: 0))
        #expect(tile.layers.map(\.extent) == [4096, 4096])
        let small = try VectorTileTestDecoder(try ClusterVectorTileWriter(index: index, features: features, extent: 512).encodeTile(z: 0, x: 0, y: 0))
        #expect(small.layers.map(\.extent) == [512, 512])
    }

    @Test func abbreviationsAndNumericIds() {
        let cases: [(Int, VectorTileValue)] = [(1, .uint(1)), (999, .uint(999)), (1000, .string("1k")), (1234, .string("1.2k")),
                                               (9_950, .string("10k")), (9_999, .string("10k")), (12_345, .string("12k")),
                                               (1_500_000, .string("1500k"))]
        for (count, value) in cases { #expect(ClusterVectorTileWriter.abbreviatedValue(count) == value, "\(count)") }
        let ids: [(String, UInt64?)] = [("0", 0), ("42", 42), ("18446744073709551615", .max), ("18446744073709551616", nil),
                                        ("007", nil), ("00", nil), ("4.0", nil), ("-1", nil), ("+1", nil), (" 1", nil),
                                        ("1e3", nil), ("park-1", nil), ("", nil), ("٣", nil)]
        for (id, value) in ids { #expect(ClusterVectorTileWriter.numericID(id) == value, "'\(id)'") }
    }
}
