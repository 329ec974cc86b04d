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
/// - geometry: `Point` gives the location (`[lon, lat]`, extra ordinates ignored). The other five types
///   (LineString, Polygon, MultiPoint, MultiLineString, MultiPolygon) are kept whole as the feature's `shape`, and
///   give a representative location (`Shape.representativePoint`: for polygons the area-weighted centroid of the
///   largest outer ring, as before). Every position is checked by `Shape(checking:)`. A null or missing geometry
///   falls back to latitude/longitude properties.
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
            let hasGeometry = fields.contains { $0.role == .geometry && $0.value != .null }
            guard hasLatitude && hasLongitude || hasGeometry else {
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
            switch shape(of: geometry) {
            case .success(let shape):
                return builder.build(fields, line: line, column: column, featureNumber: featureNumber,
                                     location: shape.representativePoint, shape: shape)
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

    /// The geometry, read into `ShapeParts` and checked by `Shape(checking:)`: the one place its vertices pass.
    private func shape(of geometry: JSONValue) -> Result<Shape, GeometryFailure> {
        do throws(GeometryFailure) {
            let type: String
            switch geometry["type"] {
            case .string(let name)?: type = name
            case nil: throw GeometryFailure(field: "geometry.type", reason: "geometry.type: missing")
            case let other?: throw GeometryFailure(field: "geometry.type", reason: "geometry.type: expected a string, got \(other.kindPhrase)")
            }
            // Exact GeoJSON spelling (RFC 7946 names the types case-sensitively).
            guard let kind = ShapeKind.allCases.first(where: { $0.name == type }) else { throw unsupported(type) }
            guard let coordinates = geometry["coordinates"] else {
                throw GeometryFailure(field: "geometry.coordinates", reason: "geometry.coordinates: missing")
            }
            var parts = ShapeParts(kind: kind)
            let root = "geometry.coordinates"
            switch kind {
            case .point:
                try position(coordinates, path: root, into: &parts)
                parts.endRing()
            case .multiPoint, .lineString:
                let positions = try array(coordinates, path: root, what: "an array of positions")
                guard !positions.isEmpty else { throw GeometryFailure(field: root, reason: "\(root): a \(type) needs at least one position") }
                for (index, value) in positions.enumerated() {
                    try position(value, path: "\(root)[\(index)]", into: &parts)
                    if kind == .multiPoint { parts.endRing() }
                }
                if kind == .lineString { parts.endRing() }
            case .multiLineString:
                let lines = try array(coordinates, path: root, what: "an array of lines")
                guard !lines.isEmpty else { throw GeometryFailure(field: root, reason: "\(root): a MultiLineString needs at least one line") }
                for (index, line) in lines.enumerated() {
                    try ring(line, path: "\(root)[\(index)]", what: "an array of positions", into: &parts)
                }
            case .polygon:
                try polygon(coordinates, path: root, into: &parts)
            case .multiPolygon:
                let polygons = try array(coordinates, path: root, what: "an array of polygons")
                guard !polygons.isEmpty else {
                    throw GeometryFailure(field: root, reason: "\(root): a MultiPolygon needs at least one polygon")
                }
                for (index, value) in polygons.enumerated() { try polygon(value, path: "\(root)[\(index)]", into: &parts) }
            }
            do {
                return .success(try Shape(checking: parts))
            } catch {
                throw GeometryFailure(field: root, reason: error.message(at: root))
            }
        } catch {
            return .failure(error)
        }
    }

    private func unsupported(_ type: String) -> GeometryFailure {
        GeometryFailure(field: "geometry.type",
                        reason: "geometry type '\(type)' is not supported (expected Point, LineString, Polygon, MultiPoint, MultiLineString or MultiPolygon)")
    }

    private func array(_ value: JSONValue, path: @autoclosure () -> String, what: String) throws(GeometryFailure) -> [JSONValue] {
        guard case .array(let values) = value else {
            throw GeometryFailure(field: "geometry.coordinates", reason: "\(path()): expected \(what), got \(value.kindPhrase)")
        }
        return values
    }

    /// A `[lon, lat, ...]` position appended to `parts` as read (range checks are `Shape(checking:)`'s).
    /// (`path` is built only for a message: the hot loop over a polygon's positions must not format strings.)
    private func position(_ value: JSONValue, path: @autoclosure () -> String, into parts: inout ShapeParts) throws(GeometryFailure) {
        guard case .array(let values) = value, values.count >= 2,
              case .number(let longitude) = values[0], case .number(let latitude) = values[1] else {
            throw GeometryFailure(field: "geometry.coordinates", reason: "\(path()): expected a position [longitude, latitude], got \(value.jsonText.prefix(60))")
        }
        parts.append(longitude: longitude, latitude: latitude)
    }

    /// A ring or line: an array of positions, ended in `parts`.
    private func ring(_ value: JSONValue, path: @autoclosure () -> String, what: String, into parts: inout ShapeParts) throws(GeometryFailure) {
        let positions = try array(value, path: path(), what: what)
        for (index, position) in positions.enumerated() {
            try self.position(position, path: "\(path())[\(index)]", into: &parts)
        }
        parts.endRing()
    }

    /// A polygon: an array of linear rings, the outer one first.
    private func polygon(_ value: JSONValue, path: String, into parts: inout ShapeParts) throws(GeometryFailure) {
        let rings = try array(value, path: path, what: "an array of linear rings")
        guard !rings.isEmpty else {
            throw GeometryFailure(field: "geometry.coordinates", reason: "\(path): a polygon needs at least one linear ring")
        }
        for (index, ring) in rings.enumerated() {
            try self.ring(ring, path: "\(path)[\(index)]", what: "an array of positions", into: &parts)
        }
        parts.endPolygon()
    }
}
