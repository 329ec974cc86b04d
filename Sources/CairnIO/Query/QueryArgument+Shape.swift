import CairnCore

extension QueryArgument {
    /// A geometry given as text: WKT (`POLYGON ((...))`), WKB in hexadecimal digits, or a GeoJSON geometry object
    /// (or a Feature holding one), read by the importers' readers (the same checks, the same messages) and
    /// checked by `Shape(checking:)`. A GeoJSON geometry is read as the geometry of a feature, so that its message
    /// names the part at fault (`geometry.coordinates[0][3]: ...`).
    /// - Throws: `QueryArgumentError` naming `argument` and what was expected.
    /// - Complexity: O(n) in the text's length.
    public static func shape(_ text: String, argument: String) throws(QueryArgumentError) -> Shape {
        let trimmed = String(text.drop { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" })
        func failure(_ reason: String) -> QueryArgumentError {
            QueryArgumentError(argument: argument, message: "\(argument): \(reason)")
        }
        guard !trimmed.isEmpty else { throw failure("expected a geometry: WKT, WKB in hexadecimal digits, or a GeoJSON geometry") }
        let parts: ShapeParts
        if trimmed.first == "{" {
            let value: JSONValue
            do {
                value = try JSONParser.parse(trimmed)
            } catch {
                throw failure("not JSON: \(error)")
            }
            let feature: JSONValue = value["type"] == .string("Feature") ? value : .object([
                JSONMember(key: "type", value: .string("Feature")),
                JSONMember(key: "properties", value: .object([JSONMember(key: "id", value: .string("query")),
                                                              JSONMember(key: "kind", value: .string("place"))])),
                JSONMember(key: "geometry", value: value),
            ])
            let decoder = GeoJSONFeatureDecoder(builder: FeatureRecordBuilder(file: argument, options: ImportOptions()), transform: nil)
            switch decoder.decodeFeature(feature, line: 1) {
            case .feature(let read, _):
                if let shape = read.shape { return shape }
                parts = ShapeParts(pointAt: read.location)
            case .rejected(let rejection):
                throw failure(rejection.reason)
            }
        } else {
            do {
                parts = try ShapeText.parts(trimmed)
            } catch {
                throw failure(error.reason)
            }
        }
        do {
            return try Shape(checking: parts)
        } catch {
            throw failure(error.message(at: ""))
        }
    }
}

extension ShapeParts {
    /// The parts of a Point at `coordinate`.
    /// - Complexity: O(1).
    init(pointAt coordinate: Coordinate) {
        self.init(kind: .point)
        append(longitude: coordinate.longitude, latitude: coordinate.latitude)
        endRing()
    }
}
