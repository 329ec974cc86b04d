import CairnCore

/// Turns one parsed JSON object into an `ImportRecord`: a GeoJSON Feature, or a flat record whose keys are fields.
///
/// Feature rules:
/// - id: the top-level `id` when present and not null, else the `properties` member named `id` (or `--id-column`).
///   With `--id-column`, only that property gives the id. A numeric id is its text as written, never a rounded
///   Double: `12345678901234567890` gives the id "12345678901234567890", and `1` and `1.0` are two ids ("1" and
///   "1.0"), as they are in a CSV file. A numeric `placeId` (a reference to an id) is read the same way.
/// - properties: each member becomes a field named as written (aliases such as `lat`/`lng` resolved by
///   `FieldRole`); strings are text, numbers, booleans and null stay typed, arrays of strings are string sets,
///   anything else is kept as its compact JSON text.
/// - geometry: `Point` gives the location (`[lon, lat]`, extra ordinates ignored). `Polygon` and `MultiPolygon`
///   give a representative location: the area-weighted centroid (planar shoelace on longitude/latitude degrees) of
///   the outer ring with the largest area; for a degenerate ring, the mean of its vertices. Longitudes are unwrapped
///   relative to the ring's first vertex (each within 180 degrees of it) before averaging and the result is wrapped
///   back into [-180, 180], so a polygon crossing the antimeridian is centred on it, not near longitude 0. This point
///   may fall outside a concave polygon. Every position is checked. A null or missing geometry falls back to
///   latitude/longitude properties.
///
/// Coordinate systems: with a `transform`, every position of the geometry (or a flat record's longitude and
/// latitude) is transformed into WGS84 degrees first (`GeoJSONPositions`), in one PROJ call per feature.
struct GeoJSONFeatureDecoder {
    let builder: FeatureRecordBuilder
    /// The transform of positions into WGS84 degrees, and the name of its source system for messages.
    var transform: (transform: CoordinateTransform, system: String)?

    private func reject(_ line: Int, _ field: String?, _ reason: String) -> ImportRecord {
        .rejected(RowRejection(file: builder.file, line: line, field: field, reason: reason))
    }

    /// Decodes a JSON value that must be a GeoJSON Feature; `featureNumber` is its 1-based place in a
    /// FeatureCollection, for messages about its id.
    /// - Complexity: O(n) in the size of the feature.
    func decodeFeature(_ value: JSONValue, line: Int, column: Int? = nil, featureNumber: Int? = nil) -> ImportRecord {
        guard case .object(let members) = value else {
            return reject(line, nil, "expected a GeoJSON Feature object, got \(value.kindPhrase)")
        }
        switch value["type"] {
        case .string("Feature"): break
        case .string(let other): return reject(line, "type", "expected a GeoJSON Feature, got type '\(other)'")
        case nil: return reject(line, "type", "missing \"type\": \"Feature\"")
        case let other?: return reject(line, "type", "expected \"type\": \"Feature\", got \(other.kindPhrase)")
        }

        var fields: [RawField] = []
        switch value["properties"] {
        case .object(let properties)?:
            fields.reserveCapacity(properties.count + 1)
            for member in properties { fields.append(field(member)) }
        case .null?, nil: break
        case let other?: return reject(line, "properties", "properties: expected an object or null, got \(other.kindPhrase)")
        }
        if builder.options.idColumn == nil {
            for member in members where member.key == "id" {
                switch member.value {
                case .null: break
                case .string(let s): fields.append(RawField(name: "id", role: .id, value: .text(s)))
                case .number: fields.append(RawField(name: "id", role: .id, value: .text(member.numberText ?? member.value.jsonText)))
                case let other: return reject(line, "id", "id: expected a string or a number, got \(other.kindPhrase)")
                }
                break
            }
        }

        switch value["geometry"] {
        case nil, .null?:
            let hasLatitude = fields.contains { $0.role == .latitude && $0.value != .null }
            let hasLongitude = fields.contains { $0.role == .longitude && $0.value != .null }
            guard hasLatitude && hasLongitude else {
                return reject(line, "geometry", "geometry is null and the properties have no latitude and longitude")
            }
            return builder.build(fields, line: line, column: column, featureNumber: featureNumber)
        case .object?:
            var geometry = value["geometry"] ?? .null
            if let transform {
                switch GeoJSONPositions.transformed(geometry, by: transform.transform) {
                case .success(let degrees): geometry = degrees
                case .failure(let position): return reject(line, "geometry.coordinates", Self.untransformable((position.x, position.y), transform.system))
                }
            }
            switch location(of: geometry) {
            case .success(let location):
                return builder.build(fields, line: line, column: column, featureNumber: featureNumber, location: location)
            case .failure(let failure): return reject(line, failure.field, failure.reason)
            }
        case let other?:
            return reject(line, "geometry", "geometry: expected an object or null, got \(other.kindPhrase)")
        }
    }

    /// Decodes a flat JSON object whose members are the record's fields (JSON lines).
    /// - Complexity: O(n) in the size of the record.
    func decodeFlatRecord(_ members: [JSONMember], line: Int) -> ImportRecord {
        let fields = members.map(field)
        if let transform {
            // A flat record's position is its longitude and latitude fields, one PROJ call per record.
            var x: Double?, y: Double?
            for field in fields {
                guard case .number(let n) = field.value else { continue }
                if field.role == .longitude { x = n } else if field.role == .latitude { y = n }
            }
            if let x, let y {
                var xs = [x], ys = [y]
                transform.transform.transform(x: &xs, y: &ys)
                guard xs[0].isFinite, let location = try? Coordinate(latitude: ys[0], longitude: xs[0]) else {
                    return reject(line, "longitude", Self.untransformable((x, y), transform.system))
                }
                return builder.build(fields, line: line, location: location)
            }
        }
        return builder.build(fields, line: line)
    }

    /// The reason of a position the transform cannot bring into degrees.
    static func untransformable(_ position: (x: Double, y: Double), _ system: String) -> String {
        "position [\(TextEscaping.jsonNumber(position.x)), \(TextEscaping.jsonNumber(position.y))] cannot be transformed from \(system) into WGS84 degrees"
    }

    private func field(_ member: JSONMember) -> RawField {
        let role = FieldRole.resolve(member.key, idColumn: builder.options.idColumn)
        if let numberText = member.numberText, Self.isIdentifier(role) {
            return RawField(name: member.key, role: role, value: .text(numberText))
        }
        return RawField(name: member.key, role: role, value: GeoJSONFeatureDecoder.rawValue(member.value))
    }

    /// Whether a field names an id (the feature's own, or a place it refers to): such a number is read as its text.
    private static func isIdentifier(_ role: FieldRole) -> Bool {
        switch role {
        case .id: true
        case .attribute(let name): FeatureRecordBuilder.isPlaceReference(name)
        default: false
        }
    }

    /// The raw field value for a JSON value.
    static func rawValue(_ value: JSONValue) -> RawFieldValue {
        switch value {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let n): return .number(n)
        case .string(let s): return .text(s)
        case .array(let values):
            var strings: [String] = []
            strings.reserveCapacity(values.count)
            for value in values {
                guard case .string(let s) = value else { return .json(JSONValue.array(values).jsonText) }
                strings.append(s)
            }
            return .strings(strings)
        case .object: return .json(value.jsonText)
        }
    }

    // MARK: - Geometry

    struct GeometryFailure: Error {
        var field: String
        var reason: String
    }

    private func location(of geometry: JSONValue) -> Result<Coordinate, GeometryFailure> {
        do throws(GeometryFailure) {
            let type: String
            switch geometry["type"] {
            case .string(let name)?: type = name
            case nil: throw GeometryFailure(field: "geometry.type", reason: "geometry.type: missing")
            case let other?: throw GeometryFailure(field: "geometry.type", reason: "geometry.type: expected a string, got \(other.kindPhrase)")
            }
            guard let coordinates = geometry["coordinates"] else {
                if type == "GeometryCollection" || !["Point", "Polygon", "MultiPolygon"].contains(type) {
                    throw unsupported(type)
                }
                throw GeometryFailure(field: "geometry.coordinates", reason: "geometry.coordinates: missing")
            }
            switch type {
            case "Point":
                return .success(try position(coordinates, path: "geometry.coordinates"))
            case "Polygon":
                let rings = try array(coordinates, path: "geometry.coordinates", what: "an array of linear rings")
                return .success(try polygonCentroid(rings, path: "geometry.coordinates").point)
            case "MultiPolygon":
                let polygons = try array(coordinates, path: "geometry.coordinates", what: "an array of polygons")
                guard !polygons.isEmpty else {
                    throw GeometryFailure(field: "geometry.coordinates", reason: "geometry.coordinates: a MultiPolygon needs at least one polygon")
                }
                var best: (point: Coordinate, area: Double)?
                for (index, polygon) in polygons.enumerated() {
                    let path = "geometry.coordinates[\(index)]"
                    let candidate = try polygonCentroid(try array(polygon, path: path, what: "an array of linear rings"), path: path)
                    if best == nil || candidate.area > (best?.area ?? 0) { best = candidate }
                }
                guard let best else { throw GeometryFailure(field: "geometry.coordinates", reason: "geometry.coordinates: empty") }
                return .success(best.point)
            default:
                throw unsupported(type)
            }
        } catch {
            return .failure(error)
        }
    }

    private func unsupported(_ type: String) -> GeometryFailure {
        GeometryFailure(field: "geometry.type",
                        reason: "geometry type '\(type)' is not supported (expected Point, Polygon or MultiPolygon)")
    }

    private func array(_ value: JSONValue, path: @autoclosure () -> String, what: String) throws(GeometryFailure) -> [JSONValue] {
        guard case .array(let values) = value else {
            throw GeometryFailure(field: "geometry.coordinates", reason: "\(path()): expected \(what), got \(value.kindPhrase)")
        }
        return values
    }

    /// A checked `[lon, lat, ...]` position.
    /// (`path` is built only for a message: the hot loop over a polygon's positions must not format strings.)
    private func position(_ value: JSONValue, path: @autoclosure () -> String) throws(GeometryFailure) -> Coordinate {
        guard case .array(let values) = value, values.count >= 2,
              case .number(let longitude) = values[0], case .number(let latitude) = values[1] else {
            throw GeometryFailure(field: "geometry.coordinates", reason: "\(path()): expected a position [longitude, latitude], got \(value.jsonText.prefix(60))")
        }
        do {
            return try Coordinate(latitude: latitude, longitude: longitude)
        } catch {
            throw GeometryFailure(field: "geometry.coordinates", reason: "\(path()): \(error)")
        }
    }

    /// The area-weighted centroid of a polygon's outer ring (rings[0]), with the ring's absolute planar area.
    private func polygonCentroid(_ rings: [JSONValue], path: String) throws(GeometryFailure) -> (point: Coordinate, area: Double) {
        guard !rings.isEmpty else {
            throw GeometryFailure(field: "geometry.coordinates", reason: "\(path): a polygon needs at least one linear ring")
        }
        var outerPoints: [Coordinate] = []
        for (ringIndex, ring) in rings.enumerated() {
            let positions = try array(ring, path: "\(path)[\(ringIndex)]", what: "an array of positions")
            guard positions.count >= 4 else {
                throw GeometryFailure(field: "geometry.coordinates", reason: "\(path)[\(ringIndex)]: a linear ring needs at least 4 positions, got \(positions.count)")
            }
            var points: [Coordinate] = []
            if ringIndex == 0 { points.reserveCapacity(positions.count) }
            for (index, value) in positions.enumerated() {
                let point = try position(value, path: "\(path)[\(ringIndex)][\(index)]")
                if ringIndex == 0 { points.append(point) }
            }
            if ringIndex == 0 { outerPoints = points }
        }
        // Longitudes unwrapped edge by edge (each edge the short way round), relative to the first vertex: a ring
        // across the antimeridian stays whole, and a wide ring with short edges keeps its real extent.
        let x0 = outerPoints[0].longitude, y0 = outerPoints[0].latitude
        var unwrapped = [Double](repeating: 0, count: outerPoints.count)
        for index in 1..<outerPoints.count {
            unwrapped[index] = unwrapped[index - 1] + Self.wrapped(outerPoints[index].longitude - outerPoints[index - 1].longitude)
        }
        // Shoelace over every edge, wrapping from the last position to the first (a zero-length edge when the
        // ring is closed as GeoJSON requires, the missing closing edge when it is not), relative to the first vertex.
        var twiceArea = 0.0, sumX = 0.0, sumY = 0.0
        for index in 0..<outerPoints.count {
            let next = index + 1 == outerPoints.count ? 0 : index + 1
            let xa = unwrapped[index], ya = outerPoints[index].latitude - y0
            let xb = unwrapped[next], yb = outerPoints[next].latitude - y0
            let cross = xa * yb - xb * ya
            twiceArea += cross
            sumX += (xa + xb) * cross
            sumY += (ya + yb) * cross
        }
        let point: Coordinate
        if abs(twiceArea) > 1e-18 {
            let longitude = Self.wrapped(x0 + sumX / (3 * twiceArea)), latitude = y0 + sumY / (3 * twiceArea)
            do {
                point = try Coordinate(latitude: min(90, max(-90, latitude)), longitude: longitude)
            } catch {
                throw GeometryFailure(field: "geometry.coordinates", reason: "\(path): \(error)")
            }
        } else {
            let count = Double(outerPoints.count - 1)
            let latitude = outerPoints.dropLast().reduce(0) { $0 + $1.latitude }
            let longitudeOffset = unwrapped.dropLast().reduce(0, +)
            do {
                point = try Coordinate(latitude: latitude / count, longitude: Self.wrapped(x0 + longitudeOffset / count))
            } catch {
                throw GeometryFailure(field: "geometry.coordinates", reason: "\(path): \(error)")
            }
        }
        return (point, abs(twiceArea) / 2)
    }

    /// An angle in degrees brought into [-180, 180]: a longitude difference the short way round, or an unwrapped
    /// longitude (any number of turns away) back on the map.
    private static func wrapped(_ degrees: Double) -> Double {
        if degrees >= -180, degrees <= 180 { return degrees }
        let turned = degrees.truncatingRemainder(dividingBy: 360)
        return turned > 180 ? turned - 360 : (turned < -180 ? turned + 360 : turned)
    }
}
