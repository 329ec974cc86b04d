import CairnCore

/// A shape written as text: a GeoJSON geometry object and WKT, with coordinates in the one number rule
/// (`TextEscaping.appendJSONNumber`), longitude first.
enum ShapeOutput {
    /// Appends `{"type":"Polygon","coordinates":[[[lon,lat],...]]}` (RFC 7946 nesting per type).
    /// - Complexity: O(n) in the number of positions.
    static func appendGeoJSON(_ shape: Shape, to out: inout [UInt8]) {
        appendGeoJSON(shape.parts, to: &out)
    }

    /// Appends `parts` as a GeoJSON geometry object: a shape's parts, or their positions in an output system
    /// (`OutputCoordinates`), x first.
    /// - Complexity: O(n) in the number of positions.
    static func appendGeoJSON(_ parts: ShapeParts, to out: inout [UInt8]) {
        out.append(literal: "{\"type\":\"")
        out.append(utf8: parts.kind.name)
        out.append(literal: "\",\"coordinates\":")
        func position(_ index: Int) {
            out.append(UInt8(ascii: "["))
            TextEscaping.appendJSONNumber(parts.positions[2 * index], to: &out)
            out.append(UInt8(ascii: ","))
            TextEscaping.appendJSONNumber(parts.positions[2 * index + 1], to: &out)
            out.append(UInt8(ascii: "]"))
        }
        func list(_ items: Range<Int>, _ body: (Int) -> Void) {
            out.append(UInt8(ascii: "["))
            for index in items {
                if index > items.lowerBound { out.append(UInt8(ascii: ",")) }
                body(index)
            }
            out.append(UInt8(ascii: "]"))
        }
        func ring(_ ring: Int) { list(parts.positionRange(ofRing: ring), position) }
        func polygon(_ polygon: Int) { list(parts.ringRange(ofPolygon: polygon), ring) }
        switch parts.kind {
        case .point: position(0)
        case .lineString: ring(0)
        case .polygon: polygon(0)
        case .multiPoint: list(parts.ringEnds.indices) { position(parts.positionRange(ofRing: $0).lowerBound) }
        case .multiLineString: list(parts.ringEnds.indices, ring)
        case .multiPolygon: list(parts.polygonEnds.indices, polygon)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// Appends the parts as WKT: `POLYGON ((lon lat, ...), (...))` (x y in an output system).
    /// - Complexity: O(n) in the number of positions.
    static func appendWKT(_ parts: ShapeParts, to out: inout [UInt8]) {
        out.append(utf8: parts.kind.name.uppercased())
        out.append(UInt8(ascii: " "))
        func ring(_ ring: Int) {
            out.append(UInt8(ascii: "("))
            for (n, index) in parts.positionRange(ofRing: ring).enumerated() {
                if n > 0 { out.append(literal: ", ") }
                TextEscaping.appendJSONNumber(parts.positions[2 * index], to: &out)
                out.append(UInt8(ascii: " "))
                TextEscaping.appendJSONNumber(parts.positions[2 * index + 1], to: &out)
            }
            out.append(UInt8(ascii: ")"))
        }
        func list(_ items: Range<Int>, _ body: (Int) -> Void) {
            out.append(UInt8(ascii: "("))
            for (n, index) in items.enumerated() {
                if n > 0 { out.append(literal: ", ") }
                body(index)
            }
            out.append(UInt8(ascii: ")"))
        }
        func polygon(_ polygon: Int) { list(parts.ringRange(ofPolygon: polygon), ring) }
        switch parts.kind {
        case .point, .lineString: ring(0)
        case .polygon: polygon(0)
        case .multiPoint, .multiLineString: list(parts.ringEnds.indices, ring)
        case .multiPolygon: list(parts.polygonEnds.indices, polygon)
        }
    }

    /// The WKT of `shape`, as a `String`.
    /// - Complexity: O(n).
    static func wkt(_ shape: Shape) -> String { wkt(shape.parts) }

    /// The WKT of `parts` (a shape's, or their positions in an output system), as a `String`.
    /// - Complexity: O(n).
    static func wkt(_ parts: ShapeParts) -> String {
        var out: [UInt8] = []
        appendWKT(parts, to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
