import CairnCore
import PostgresNIO

/// Queries answered by PostGIS in SQL instead of the in-memory index (`cairn … --engine postgis`), with Cairn's
/// answers: the same edge rule (on the edge is inside: every test is `<=` on the distance PostGIS returns, with
/// `ST_DWithin` only finding candidates, see `searchRadius`), WGS84 distances (`ST_Distance(…, true)`, the spheroid, which PostGIS
/// computes with Karney's algorithm as Cairn does), the same order (a box: feature order; the others: distance,
/// then feature order). Indexes: the GiST index on `location` for distances and `<->`, the one on
/// `location::geometry` for boxes (`PostgresSchema`, migration 2).
extension PostgresFeatureStore {
    /// Features inside `box` or on its edge, of `kinds` (every kind when empty), in feature order. A box across the
    /// antimeridian is asked as two; the meridians 180 and -180 are one, as in `BoundingBox.contains`.
    /// - Complexity: O(log n + m) with the geometry index.
    public func features(in box: BoundingBox, kinds: Set<FeatureKind>) async throws(PostgresStoreError) -> [PostGISHit] {
        var ranges = box.crossesAntimeridian ? [(box.west, 180.0), (-180.0, box.east)] : [(box.west, box.east)]
        if ranges.contains(where: { $0.1 == 180 }) { ranges.append((-180, -180)) }
        if ranges.contains(where: { $0.0 == -180 }) { ranges.append((180, 180)) }
        // Doubles written shortest-round-trip are read back exactly; `&&` finds candidates by the index (whose
        // boxes are rounded outwards), ST_X/ST_Y decide exactly.
        let south = box.south.description, north = box.north.description
        let alternatives = ranges.map { west, east in
            "(location::geometry && ST_MakeEnvelope(\(west), \(south), \(east), \(north), 4326) "
                + "AND ST_X(location::geometry) BETWEEN \(west) AND \(east))"
        }
        let sql = "SELECT \(PostgresFeatureRow.selectList()) FROM cairn_feature WHERE (\(alternatives.joined(separator: " OR "))) "
            + "AND ST_Y(location::geometry) BETWEEN \(south) AND \(north) AND \(Self.kindCondition(kinds)) ORDER BY position"
        return try await withSession { session throws(PostgresStoreError) in
            var hits: [PostGISHit] = []
            try await session.forEachRow(PostgresQuery(unsafeSQL: sql), action: "finding features in \(box)") { row throws(PostgresStoreError) in
                hits.append(PostGISHit(feature: try PostgresFeatureRow.decode(row).feature, distanceMeters: nil))
            }
            return hits
        }
    }

    /// Features at most `radiusMeters` from `center` (on the edge is inside), of `kinds`, nearest first.
    /// - Complexity: O(log n + m) with the geography index.
    public func features(withinMeters radiusMeters: Double, of center: Coordinate, kinds: Set<FeatureKind>) async throws(PostgresStoreError) -> [PostGISHit] {
        let point = Self.point(center), radius = radiusMeters.description
        return try await distanceQuery("""
            WHERE ST_DWithin(\(Self.measured), \(point), \(Self.searchRadius(radiusMeters)), true) AND ST_Distance(\(Self.measured), \(point), true) <= \(radius)
            AND \(Self.kindCondition(kinds))
            """, from: center, to: Self.measured, action: "finding features within \(radius) m")
    }

    /// The `count` features nearest to `center` (at most `maxDistanceMeters` away when given), of `kinds`,
    /// nearest first. `<->` (PostGIS's index-assisted order, on the sphere) finds `count` features; the largest of
    /// their WGS84 distances bounds the answer, which is then found exactly within it and ordered.
    /// - Complexity: O(log n + k) with the geography index, for k features within the bound.
    public func nearest(to center: Coordinate, count: Int, maxDistanceMeters: Double?, kinds: Set<FeatureKind>) async throws(PostgresStoreError) -> [PostGISHit] {
        let point = Self.point(center)
        let within = maxDistanceMeters.map { "AND ST_DWithin(\(Self.measured), \(point), \(Self.searchRadius($0)), true) AND ST_Distance(\(Self.measured), \(point), true) <= \($0.description)" } ?? ""
        let candidates = try await withSession { session throws(PostgresStoreError) in
            try await session.rows(PostgresQuery(unsafeSQL: """
                SELECT ST_Distance(\(Self.measured), \(point), true) FROM cairn_feature WHERE \(Self.kindCondition(kinds)) \(within)
                ORDER BY \(Self.measured) <-> \(point) LIMIT \(count)
                """), action: "finding the \(count) nearest features") { try $0.decode(Double.self) }
        }
        // Fewer than `count` candidates: every feature (within the maximum) is in the answer.
        var bound = candidates.count == count ? candidates.max() : nil
        if let maxDistanceMeters { bound = min(bound ?? maxDistanceMeters, maxDistanceMeters) }
        let limit = bound.map { "AND ST_DWithin(\(Self.measured), \(point), \(Self.searchRadius($0)), true) AND ST_Distance(\(Self.measured), \(point), true) <= \($0.description)" } ?? ""
        return try await distanceQuery("WHERE \(Self.kindCondition(kinds)) \(limit)", from: center, to: Self.measured, limit: count,
                                       action: "finding the \(count) nearest features")
    }

    /// Features whose circle (location and radius) holds `point` (on the edge is inside), of `kinds`, nearest
    /// centre first: the check-in question. The largest radius bounds the search, so the geography index serves it.
    /// - Complexity: O(log n + m) for m features within the largest radius.
    public func containing(_ point: Coordinate, kinds: Set<FeatureKind>) async throws(PostgresStoreError) -> [PostGISHit] {
        let at = Self.point(point)
        return try await distanceQuery("""
            WHERE radius_m IS NOT NULL
            AND ST_DWithin(location, \(at), (SELECT coalesce(max(radius_m), 0) * 1.001 + 1 FROM cairn_feature), true)
            AND ST_Distance(location, \(at), true) <= radius_m AND \(Self.kindCondition(kinds))
            """, from: point, to: "location", action: "finding the circles that hold a point")
    }

    /// What `around` and `nearest` measure: a feature's shape where it has one (0 inside a polygon, else to its
    /// boundary, line or points), its location otherwise, as the in-memory index does. PostGIS takes a geography's
    /// edges as geodesics where Cairn takes them as straight in longitude and latitude, so long edges may measure a
    /// little apart; on the Helsinki parks and New York boroughs of PostgresQueryParityTests the two agree within
    /// 1e-8 m. Not served by the location's GiST index (a scan): `--engine postgis` is for comparison.
    static let measured = "coalesce(shape, location)"

    /// Runs `SELECT … , distance FROM cairn_feature <condition> ORDER BY distance, position [LIMIT limit]`, the
    /// distance from `center` to the column expression `measuredColumn`.
    private func distanceQuery(_ condition: String, from center: Coordinate, to measuredColumn: String, limit: Int? = nil,
                               action: String) async throws(PostgresStoreError) -> [PostGISHit] {
        let sql = "SELECT \(PostgresFeatureRow.selectList()), ST_Distance(\(measuredColumn), \(Self.point(center)), true) AS distance_m "
            + "FROM cairn_feature \(condition) ORDER BY distance_m, position" + (limit.map { " LIMIT \($0)" } ?? "")
        return try await withSession { session throws(PostgresStoreError) in
            var hits: [PostGISHit] = []
            try await session.forEachRow(PostgresQuery(unsafeSQL: sql), action: action) { row throws(PostgresStoreError) in
                let (feature, _, distance) = try PostgresFeatureRow.decodeWithDistance(row)
                hits.append(PostGISHit(feature: feature, distanceMeters: distance))
            }
            return hits
        }
    }

    /// The radius `ST_DWithin` searches to find the candidates for an exact test at `meters`: a little wider, since
    /// `ST_DWithin(a, b, ST_Distance(a, b, true), true)` is often false (`ST_Distance` rounds to 1e-8 m, `ST_DWithin`
    /// compares the unrounded distance; 4 of the 6 towns nearest the north pole in Data/'s GeoNames).
    private static func searchRadius(_ meters: Double) -> String { (meters * 1.001 + 1).description }

    /// A point as a geography literal (doubles written shortest-round-trip, so read back exactly).
    private static func point(_ coordinate: Coordinate) -> String {
        "ST_SetSRID(ST_MakePoint(\(coordinate.longitude.description), \(coordinate.latitude.description)), 4326)::geography"
    }

    /// The kinds as a condition (`true` for every kind); kinds are Cairn's own names, never user text.
    private static func kindCondition(_ kinds: Set<FeatureKind>) -> String {
        kinds.isEmpty ? "true" : "kind IN (" + kinds.map { "'\($0.rawValue)'" }.sorted().joined(separator: ", ") + ")"
    }
}
