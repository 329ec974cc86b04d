import CairnCore

/// Turns one input record (named raw fields) into a validated `Feature` or a `RowRejection`.
///
/// Shared by every reader so CSV, GeoJSON and JSON lines follow the same rules: aliases, required fields,
/// distance units, ISO 8601 times (a time without a zone is UTC; a JSON number is seconds since 1970),
/// typed attributes, and the kind-specific checks of `Feature`.
public struct FeatureRecordBuilder: Sendable {
    /// The file as the user named it, used in rejections and as the prefix of derived ids (`FILE:LINE`): the path
    /// as given, not its base name, so that `d1/p.csv` and `d2/p.csv` never derive the same id.
    public let file: String
    /// The import options.
    public let options: ImportOptions

    /// Attribute names whose text values are string sets, split on `;` or `|`.
    public static let setValuedAttributes: Set<String> = ["ageGroups", "interests", "sports", "amenities", "tags"]

    /// A cheap pre-check for `setValuedAttributes`: per first byte, a bit per name length (mod 64).
    private static let setValuedShapes: [UInt64] = {
        var shapes = [UInt64](repeating: 0, count: 256)
        for name in setValuedAttributes {
            if let first = name.utf8.first { shapes[Int(first)] |= 1 << UInt64(name.utf8.count & 63) }
        }
        return shapes
    }()

    /// Whether `name` is in `setValuedAttributes`; most names are ruled out without hashing.
    static func isSetValued(_ name: String) -> Bool {
        guard let first = name.utf8.first,
              setValuedShapes[Int(first)] & (1 << UInt64(name.utf8.count & 63)) != 0 else { return false }
        return setValuedAttributes.contains(name)
    }

    /// Whether a field name refers to a place by id (`placeId`, `place_id`).
    static func isPlaceReference(_ name: String) -> Bool {
        // Only 7 or 8 ASCII bytes starting with p or P can lower-case to these names (no other character
        // lower-cases to an ASCII letter of them): most names are ruled out without making a lower-cased copy.
        let count = name.utf8.count
        guard count == 7 || count == 8, let first = name.utf8.first, first | 0x20 == UInt8(ascii: "p") else { return false }
        let lowered = name.lowercased()
        return lowered == "placeid" || lowered == "place_id"
    }

    /// Creates a builder for one input file.
    public init(file: String, options: ImportOptions) {
        self.file = file
        self.options = options
    }

    /// The required fields missing from a set of roles (latitude and longitude, and the id column when one was named).
    /// Readers of tabular input check this once, against the header.
    /// - Complexity: O(n).
    public func missingRequiredFields(in roles: [FieldRole]) -> [String] {
        var missing: [String] = []
        let locatedByPlace = roles.contains(.geometry) || options.placeLookup != nil && roles.contains { role in
            if case .attribute(let name) = role { return Self.isPlaceReference(name) }
            return false
        }
        if !roles.contains(.latitude), !locatedByPlace { missing.append("latitude (or lat)") }
        if !roles.contains(.longitude), !locatedByPlace { missing.append("longitude (or lon, lng, long)") }
        if let idColumn = options.idColumn, !roles.contains(.id) { missing.append(idColumn) }
        return missing
    }

    /// Builds the feature for one record starting at `line`.
    /// `location` is given by readers that take the position from elsewhere (a GeoJSON geometry), with the whole
    /// `shape` when there is one.
    /// - Complexity: O(n) in the number of fields.
    /// `column` (1-based), when given, makes derived ids `FILE:LINE:COLUMN`: records that share a line (a minified
    /// GeoJSON file) still get distinct ids. `featureNumber` (1-based), the record's place in a GeoJSON
    /// FeatureCollection, is named by a message about its id, where a line alone does not find it.
    public func build(_ fields: [RawField], line: Int, column: Int? = nil, featureNumber: Int? = nil,
                      location presetLocation: Coordinate? = nil, shape presetShape: Shape? = nil) -> ImportRecord {
        do {
            return .feature(try makeFeature(fields, line: line, column: column, featureNumber: featureNumber,
                                            presetLocation: presetLocation, presetShape: presetShape), line: line)
        } catch {
            return .rejected(error)
        }
    }

    private func makeFeature(_ fields: [RawField], line: Int, column: Int?, featureNumber: Int?,
                             presetLocation: Coordinate?, presetShape: Shape?) throws(RowRejection) -> Feature {
        func reject(_ field: String?, _ reason: String) -> RowRejection {
            RowRejection(file: file, line: line, field: field, reason: reason)
        }
        var id: String?
        var idField = "id"
        var kindText: String?
        var latitude: Double?, longitude: Double?
        var radiusMeters: Double? = options.defaultRadiusMeters
        var start: Timestamp?, end: Timestamp?, instant: Timestamp?
        var instantField: RawField?
        var placeReference: String?
        var shape = presetShape
        var attributes: [String: AttributeValue] = [:]
        attributes.reserveCapacity(fields.count)

        for field in fields {
            switch field.role {
            case .id:
                id = try text(field, line: line)
                idField = field.name
            case .kind:
                kindText = try text(field, line: line)
            case .latitude:
                latitude = try number(field, line: line)
            case .longitude:
                longitude = try number(field, line: line)
            case .radius:
                if let value = try distance(field, line: line) { radiusMeters = value }
            case .startTime:
                start = try time(field, line: line)
            case .endTime:
                end = try time(field, line: line)
            case .time:
                instant = try time(field, line: line)
                instantField = field
            case .geometry:
                // Beside a GeoJSON geometry, a property of that name is an ordinary attribute, as it always was.
                if presetShape == nil && presetLocation == nil {
                    shape = try geometry(field, line: line)
                } else if let value = try attribute(field, line: line) {
                    attributes[field.name] = value
                }
            case .attribute(let name):
                if Self.isPlaceReference(name) { placeReference = try text(field, line: line) }
                if let value = try attribute(field, line: line) { attributes[name] = value }
            }
        }

        let kind: FeatureKind
        if let forced = options.kind {
            kind = forced
        } else if let kindText, !kindText.isEmpty {
            guard let parsed = FeatureKind(rawValue: kindText.lowercased()) else {
                throw reject("kind", "field 'kind': expected one of \(FeatureKind.allCases.map(\.rawValue).joined(separator: ", ")), got '\(kindText)'")
            }
            kind = parsed
        } else {
            kind = .place
        }

        let location: Coordinate
        if let presetLocation {
            location = presetLocation
        } else if latitude == nil, longitude == nil, let shape {
            location = shape.representativePoint
        } else if latitude == nil, longitude == nil, let lookup = options.placeLookup, let placeReference, !placeReference.isEmpty {
            guard let place = lookup(placeReference) else {
                throw reject("placeId", "field 'placeId': the row has no latitude/longitude and place '\(placeReference)' is not in the store (import places first)")
            }
            location = place.location
            if radiusMeters == nil { radiusMeters = place.radiusMeters }
        } else {
            guard let latitude else { throw reject("latitude", "field 'latitude': missing value (expected a number in [-90, 90])") }
            guard let longitude else { throw reject("longitude", "field 'longitude': missing value (expected a number in [-180, 180])") }
            do {
                location = try Coordinate(latitude: latitude, longitude: longitude)
            } catch {
                throw reject(error.field.rawValue, "field '\(error.field.rawValue)': \(error)")
            }
        }

        // A time field means "when it was seen" only for sightings; elsewhere it is an ordinary attribute.
        var timeWindow: TimeWindow?
        if kind == .sighting {
            if let instant { timeWindow = TimeWindow(instant: instant) }
        } else if let instant, let instantField {
            attributes[instantField.name] = .time(instant)
        }
        if start != nil || end != nil {
            guard let start else { throw reject("startTime", "field 'startTime': missing value (an event needs a start and an end)") }
            guard let end else { throw reject("endTime", "field 'endTime': missing value (an event needs a start and an end)") }
            do {
                timeWindow = try TimeWindow(start: start, end: end)
            } catch {
                throw reject("endTime", error.description)
            }
        }

        // Without an id field the id is derived from where the record starts; an empty id field stays empty (refused).
        var resolvedId = id ?? ""
        if resolvedId.isEmpty, options.idColumn == nil, !fields.contains(where: { $0.role == .id }) {
            resolvedId = column.map { "\(file):\(line):\($0)" } ?? "\(file):\(line)"
        }
        if resolvedId.isEmpty {
            // Name what the user typed: the --id-column they gave, where the record is, and what it holds instead.
            let place = Self.placePhrase(column: column, featureNumber: featureNumber)
            if let idColumn = options.idColumn, !fields.contains(where: { $0.role == .id }) {
                let names = fields.prefix(8).map { "'\($0.name)'" }.joined(separator: ", ") + (fields.count > 8 ? ", …" : "")
                throw reject(idColumn, "field '\(idColumn)' named by --id-column is missing\(place); the record has \(names)")
            }
            throw reject(idField, "field '\(idField)': must not be empty\(place)")
        }
        if TextEscaping.containsIdControlCharacters(resolvedId) {
            throw reject(idField, "field '\(idField)': an id may not contain control characters (U+0000-U+001F, U+007F), "
                         + "got '\(TextEscaping.escapingControlCharacters(resolvedId))'")
        }
        do {
            return try Feature(id: resolvedId, kind: kind, location: location, radiusMeters: radiusMeters,
                               timeWindow: timeWindow, attributes: attributes, shape: shape)
        } catch {
            throw reject(nil, error.description)
        }
    }

    /// Where a record sits when its line may not find it: " (feature 3 of the collection, at column 41)", or "".
    private static func placePhrase(column: Int?, featureNumber: Int?) -> String {
        switch (featureNumber, column) {
        case let (number?, column?): " (feature \(number) of the collection, at column \(column))"
        case let (number?, nil): " (feature \(number) of the collection)"
        case let (nil, column?): " (the record at column \(column))"
        case (nil, nil): ""
        }
    }

    // MARK: - Typing one value

    private func text(_ field: RawField, line: Int) throws(RowRejection) -> String? {
        switch field.value {
        case .text(let s): return s.trimmed
        case .number(let n): return TextEscaping.jsonNumber(n)
        case .bool(let b): return b ? "true" : "false"
        case .null: return nil
        case .strings, .json:
            throw RowRejection(file: file, line: line, field: field.name, reason: "field '\(field.name)': expected text, got a list or object")
        }
    }

    private func number(_ field: RawField, line: Int) throws(RowRejection) -> Double? {
        let expected = field.role == .latitude ? "a number in [-90, 90]" : "a number in [-180, 180]"
        switch field.value {
        case .number(let n): return n
        case .null: return nil
        case .text(let raw):
            let s = raw.trimmed
            if s.isEmpty { return nil }
            if let n = DecimalText.parse(s) { return n }
            throw RowRejection(file: file, line: line, field: field.role.name, reason: "field '\(field.role.name)': expected \(expected), got '\(raw)'")
        default:
            throw RowRejection(file: file, line: line, field: field.role.name, reason: "field '\(field.role.name)': expected \(expected)")
        }
    }

    /// A geometry field: WKT or hexadecimal WKB, checked (`Shape(checking:)`, the one place its vertices pass).
    private func geometry(_ field: RawField, line: Int) throws(RowRejection) -> Shape? {
        let text: String
        switch field.value {
        case .text(let raw): text = raw.trimmed
        case .null: return nil
        default:
            throw RowRejection(file: file, line: line, field: field.name,
                               reason: "field '\(field.name)': expected WKT or hexadecimal WKB text")
        }
        if text.isEmpty { return nil }
        let parts: ShapeParts
        do {
            parts = try ShapeText.parts(text)
        } catch {
            throw RowRejection(file: file, line: line, field: field.name, reason: "field '\(field.name)': \(error.reason)")
        }
        do {
            return try Shape(checking: parts)
        } catch {
            throw RowRejection(file: file, line: line, field: field.name, reason: "field '\(field.name)': \(error)")
        }
    }

    private func distance(_ field: RawField, line: Int) throws(RowRejection) -> Double? {
        let reason = "field '\(field.name)': expected a distance > 0 such as 150, 150m, 1.2km or 3mi"
        switch field.value {
        case .number(let n): return n
        case .null: return nil
        case .text(let raw):
            let s = raw.trimmed
            if s.isEmpty { return nil }
            if let meters = DistanceText.meters(from: s) { return meters }
            throw RowRejection(file: file, line: line, field: field.name, reason: reason + ", got '\(raw)'")
        default:
            throw RowRejection(file: file, line: line, field: field.name, reason: reason)
        }
    }

    private func time(_ field: RawField, line: Int) throws(RowRejection) -> Timestamp? {
        switch field.value {
        case .number(let n) where Timestamp.representableSeconds.contains(n): return Timestamp(secondsSince1970: n)
        case .number(let n):
            throw RowRejection(file: file, line: line, field: field.name,
                               reason: "field '\(field.name)': expected seconds since 1970 between years 0 and 9999, got \(n)")
        case .null: return nil
        case .text(let raw):
            let s = raw.trimmed
            if s.isEmpty { return nil }
            if let t = Timestamp(iso8601: s) { return t }
            throw RowRejection(file: file, line: line, field: field.name,
                               reason: "field '\(field.name)': expected an ISO 8601 time such as 2026-05-01T18:30:00Z, got '\(raw)'")
        default:
            throw RowRejection(file: file, line: line, field: field.name, reason: "field '\(field.name)': expected an ISO 8601 time")
        }
    }

    private func attribute(_ field: RawField, line: Int) throws(RowRejection) -> AttributeValue? {
        switch field.value {
        case .text(let raw):
            if FeatureRecordBuilder.isSetValued(field.name) {
                let members = raw.split(whereSeparator: { $0 == ";" || $0 == "|" }).map { String($0).trimmed }.filter { !$0.isEmpty }
                return members.isEmpty ? nil : .set(members)
            }
            return AttributeValue.inferred(from: raw)
        case .number(let n):
            guard n.isFinite else {
                throw RowRejection(file: file, line: line, field: field.name, reason: "field '\(field.name)': expected a finite number")
            }
            return .number(n)
        case .bool(let b): return .bool(b)
        case .strings(let values): return .set(values)
        case .null: return nil
        case .json(let text): return .string(text)
        }
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    var trimmed: String {
        guard let first = utf8.first, let last = utf8.last,
              first == 32 || first == 9 || last == 32 || last == 9 else { return self }
        return String(self.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
