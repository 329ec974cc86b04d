import CairnCore
import CairnIO

/// Reads the common form of a park's area from WKT bytes, `POLYGON ((x y, ...), ...)` or
/// `MULTIPOLYGON (((x y, ...), ...), ...)`, straight into `ShapeParts`, for the fast read of a places CSV file
/// (`CheckInReferenceData`): no `String`, no `Feature`, one pass over the bytes.
///
/// It reads exactly what CairnIO's `WKTReader` reads for these texts and gives exactly its parts: tokens may be
/// separated by spaces, tabs, CR and LF; keywords in any case; a number is the bytes up to the next space, tab,
/// `,`, `(`, `)`, CR, LF or `;`, read by `DecimalText.parse` (so its value is bit for bit the same). Anything else
/// (another type, `Z`/`M` ordinates, `EMPTY`, `SRID=`, WKB, a malformed text) is nil: the caller then reads the
/// whole file through the feature reader, whose messages say what was wrong.
enum AreaWKTScanner {
    /// The parts of the polygon or multipolygon in `bytes`, or nil when the text is not one in the common form.
    /// - Complexity: O(n) in the bytes.
    static func parts(_ bytes: UnsafeBufferPointer<UInt8>) -> ShapeParts? {
        guard let base = bytes.baseAddress else { return nil }
        var cursor = Cursor(base: base, end: bytes.count)
        return cursor.geometry()
    }

    private struct Cursor {
        let base: UnsafePointer<UInt8>
        let end: Int
        var offset = 0

        @inline(__always)
        static func isSpace(_ byte: UInt8) -> Bool { byte == 32 || byte == 9 || byte == 10 || byte == 13 }

        @inline(__always)
        mutating func skipSpaces() {
            while offset < end, Self.isSpace(base[offset]) { offset &+= 1 }
        }

        /// Consumes `byte` when it is next (after spaces).
        @inline(__always)
        mutating func take(_ byte: UInt8) -> Bool {
            skipSpaces()
            guard offset < end, base[offset] == byte else { return false }
            offset &+= 1
            return true
        }

        /// Consumes the letters next (after spaces) when they spell `word` in any case and no letter follows.
        mutating func takeWord(_ word: StaticString) -> Bool {
            skipSpaces()
            let count = word.utf8CodeUnitCount
            guard end - offset >= count else { return false }
            let letters = word.utf8Start
            for i in 0..<count where base[offset + i] | 0x20 != letters[i] | 0x20 { return false }
            if offset + count < end, Self.isLetter(base[offset + count]) { return false }
            offset += count
            return true
        }

        @inline(__always)
        static func isLetter(_ byte: UInt8) -> Bool { byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z") }

        /// Whether `byte` ends a number for `WKTReader`.
        @inline(__always)
        static func endsNumber(_ byte: UInt8) -> Bool {
            byte == 32 || byte == 44 || byte == 41 || byte == 40 || byte == 9 || byte == 10 || byte == 13 || byte == 59
        }

        /// A number as `WKTReader` cuts and reads it: first `DecimalText.shortPrefix` (the common
        /// `[-]digits.digits`, bit for bit what `DecimalText.parse` gives) when a byte that ends a number follows it;
        /// anything else is cut and given to `DecimalText.parse`.
        @inline(__always)
        mutating func number() -> Double? {
            skipSpaces()
            let start = offset
            var i = offset
            if let value = DecimalText.shortPrefix(base, &i, end), i == end || Self.endsNumber(base[i]) {
                offset = i
                return value
            }
            while offset < end {
                if Self.endsNumber(base[offset]) { break }
                offset &+= 1
            }
            guard offset > start else { return nil }
            return DecimalText.parse(UnsafeBufferPointer(start: base + start, count: offset - start))
        }

        /// `(x y, x y, ...)`, ended in `parts`.
        mutating func ring(into parts: inout ShapeParts) -> Bool {
            guard take(UInt8(ascii: "(")) else { return false }
            repeat {
                guard let longitude = number(), let latitude = number() else { return false }
                parts.append(longitude: longitude, latitude: latitude)
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: ")")) else { return false }
            parts.endRing()
            return true
        }

        /// `((ring), (ring), ...)`, ended in `parts`.
        mutating func polygon(into parts: inout ShapeParts) -> Bool {
            guard take(UInt8(ascii: "(")) else { return false }
            repeat {
                guard ring(into: &parts) else { return false }
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: ")")) else { return false }
            parts.endPolygon()
            return true
        }

        mutating func geometry() -> ShapeParts? {
            let kind: ShapeKind
            if takeWord("POLYGON") {
                kind = .polygon
            } else if takeWord("MULTIPOLYGON") {
                kind = .multiPolygon
            } else {
                return nil
            }
            var parts = ShapeParts(kind: kind)
            // About 9 bytes per number in exported coordinates: one allocation for most texts.
            parts.positions.reserveCapacity(end / 9 + 4)
            if kind == .polygon {
                guard polygon(into: &parts) else { return nil }
            } else {
                guard take(UInt8(ascii: "(")) else { return nil }
                repeat {
                    guard polygon(into: &parts) else { return nil }
                } while take(UInt8(ascii: ","))
                guard take(UInt8(ascii: ")")) else { return nil }
            }
            skipSpaces()
            return offset == end ? parts : nil
        }
    }
}
