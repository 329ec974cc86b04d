import CairnCore

/// Reads one geometry from well-known text (OGC Simple Features WKT, 2D): `POINT (lon lat)`, `LINESTRING`,
/// `POLYGON`, `MULTIPOINT` (points with or without their own parentheses), `MULTILINESTRING`, `MULTIPOLYGON`.
///
/// Also read: Z, M and ZM ordinates (dropped, as GeoJSON's extra ordinates are), keywords in any case, and an EWKT
/// `SRID=4326;` prefix (another SRID is refused: Cairn's coordinates are WGS84 degrees). Numbers go through
/// `DecimalText`, the one number rule. `EMPTY` geometries are refused: they locate nothing.
/// The parts come back unchecked; `Shape(checking:)` checks them.
enum WKTReader {
    /// Why a text is not WKT, with the byte offset where reading stopped.
    struct Failure: Error {
        let reason: String
    }

    /// The parts of the geometry in `text`.
    /// - Throws: `Failure` saying what was expected where.
    /// - Complexity: O(n) in the length of the text.
    static func parts(_ text: String) throws(Failure) -> ShapeParts {
        var cursor = Cursor(bytes: Array(text.utf8))
        return try cursor.geometry()
    }

    /// Whether `text` is to be read as WKT rather than hexadecimal WKB, whose first byte (the byte order, 00 or 01)
    /// makes it start with `0`; anything else is WKT, and WKT's messages say what was expected.
    /// - Complexity: O(1) amortised.
    static func looksLikeWKT(_ text: String) -> Bool {
        text.utf8.first(where: { $0 != 32 && $0 != 9 }) != UInt8(ascii: "0")
    }

    private struct Cursor {
        let bytes: [UInt8]
        var offset = 0

        func fail(_ expected: String) -> Failure {
            let found = offset < bytes.count
                ? "'" + String(decoding: bytes[offset..<min(bytes.count, offset + 20)], as: UTF8.self) + "'"
                : "the end"
            return Failure(reason: "WKT: expected \(expected) at character \(offset + 1), found \(found)")
        }

        mutating func skipSpaces() {
            while offset < bytes.count, bytes[offset] == 32 || bytes[offset] == 9 || bytes[offset] == 10 || bytes[offset] == 13 {
                offset += 1
            }
        }

        /// A word of letters (upper-cased), or "" when none is here.
        mutating func word() -> String {
            skipSpaces()
            let start = offset
            while offset < bytes.count, (bytes[offset] | 0x20) >= UInt8(ascii: "a"), (bytes[offset] | 0x20) <= UInt8(ascii: "z") {
                offset += 1
            }
            return String(decoding: bytes[start..<offset], as: UTF8.self).uppercased()
        }

        /// Consumes `byte` when it is next (after spaces).
        mutating func take(_ byte: UInt8) -> Bool {
            skipSpaces()
            guard offset < bytes.count, bytes[offset] == byte else { return false }
            offset += 1
            return true
        }

        mutating func expect(_ byte: UInt8) throws(Failure) {
            guard take(byte) else { throw fail("'\(Character(Unicode.Scalar(byte)))'") }
        }

        mutating func number() throws(Failure) -> Double {
            skipSpaces()
            let start = offset
            while offset < bytes.count, !(bytes[offset] == 32 || bytes[offset] == 9 || bytes[offset] == 44
                                          || bytes[offset] == 40 || bytes[offset] == 41 || bytes[offset] == 10 || bytes[offset] == 13
                                          || bytes[offset] == 59) {
                offset += 1
            }
            let value = bytes[start..<offset].withUnsafeBufferPointer { DecimalText.parse($0) }
            guard start < offset, let value else {
                offset = start
                throw fail("a number")
            }
            return value
        }

        mutating func geometry() throws(Failure) -> ShapeParts {
            var name = word()
            if name == "SRID" {
                try expect(UInt8(ascii: "="))
                let srid = try number()
                guard srid == 4326 else { throw Failure(reason: "WKT: SRID \(formatted(srid)), expected 4326 (WGS84 degrees)") }
                try expect(UInt8(ascii: ";"))
                name = word()
            }
            guard let kind = ShapeKind(name: name) else {
                offset -= name.utf8.count
                throw fail("a geometry type (POINT, LINESTRING, POLYGON, MULTIPOINT, MULTILINESTRING, MULTIPOLYGON)")
            }
            var dimensions = 2
            var save = offset
            var next = word()
            if next == "Z" || next == "M" || next == "ZM" {
                dimensions = next == "ZM" ? 4 : 3
                save = offset
                next = word()
            }
            if next == "EMPTY" { throw Failure(reason: "WKT: an empty \(kind.name) locates nothing") }
            offset = save
            var parts = ShapeParts(kind: kind)
            try body(kind, dimensions: dimensions, into: &parts)
            skipSpaces()
            guard offset == bytes.count else { throw fail("the end of the geometry") }
            return parts
        }

        mutating func position(dimensions: Int, into parts: inout ShapeParts) throws(Failure) {
            let longitude = try number(), latitude = try number()
            for _ in 2..<dimensions { _ = try number() }
            parts.append(longitude: longitude, latitude: latitude)
        }

        /// `(x y, x y, ...)`, ended in `parts`.
        mutating func ring(dimensions: Int, into parts: inout ShapeParts) throws(Failure) {
            try expect(UInt8(ascii: "("))
            repeat { try position(dimensions: dimensions, into: &parts) } while take(UInt8(ascii: ","))
            try expect(UInt8(ascii: ")"))
            parts.endRing()
        }

        /// `((ring), (ring), ...)`, ended in `parts`.
        mutating func polygon(dimensions: Int, into parts: inout ShapeParts) throws(Failure) {
            try expect(UInt8(ascii: "("))
            repeat { try ring(dimensions: dimensions, into: &parts) } while take(UInt8(ascii: ","))
            try expect(UInt8(ascii: ")"))
            parts.endPolygon()
        }

        mutating func body(_ kind: ShapeKind, dimensions: Int, into parts: inout ShapeParts) throws(Failure) {
            switch kind {
            case .point, .lineString:
                try ring(dimensions: dimensions, into: &parts)
            case .polygon:
                try polygon(dimensions: dimensions, into: &parts)
            case .multiPoint:
                try expect(UInt8(ascii: "("))
                repeat {
                    // Both `MULTIPOINT (1 2, 3 4)` and `MULTIPOINT ((1 2), (3 4))` are in use.
                    if take(UInt8(ascii: "(")) {
                        try position(dimensions: dimensions, into: &parts)
                        try expect(UInt8(ascii: ")"))
                    } else {
                        try position(dimensions: dimensions, into: &parts)
                    }
                    parts.endRing()
                } while take(UInt8(ascii: ","))
                try expect(UInt8(ascii: ")"))
            case .multiLineString:
                try expect(UInt8(ascii: "("))
                repeat { try ring(dimensions: dimensions, into: &parts) } while take(UInt8(ascii: ","))
                try expect(UInt8(ascii: ")"))
            case .multiPolygon:
                try expect(UInt8(ascii: "("))
                repeat { try polygon(dimensions: dimensions, into: &parts) } while take(UInt8(ascii: ","))
                try expect(UInt8(ascii: ")"))
            }
        }

        private func formatted(_ value: Double) -> String {
            value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        }
    }
}
