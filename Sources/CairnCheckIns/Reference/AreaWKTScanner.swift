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
        // The ordinates go to scratch first and into `positions` in one copy: appending each to the array cost a
        // call and a uniqueness check per number. A number takes a byte at least and a byte (a space, `,`, `(`,
        // `)`) follows it before the next, so n bytes hold at most (n + 1) / 2 of them.
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: bytes.count / 2 + 2) { ordinates in
            guard let scratch = ordinates.baseAddress else { return nil }
            var cursor = Cursor(base: base, end: bytes.count, ordinates: scratch, capacity: ordinates.count)
            return cursor.geometry()
        }
    }

    private struct Cursor {
        let base: UnsafePointer<UInt8>
        let end: Int
        var offset = 0
        /// The ordinates read so far (longitude, latitude, ...), `count` of `capacity`.
        let ordinates: UnsafeMutablePointer<Double>
        let capacity: Int
        var count = 0
        /// Where each ring and each polygon read so far ends (`ShapeParts`' `ringEnds`, `polygonEnds`).
        var ringEnds: [Int] = []
        var polygonEnds: [Int] = []

        init(base: UnsafePointer<UInt8>, end: Int, ordinates: UnsafeMutablePointer<Double>, capacity: Int) {
            self.base = base
            self.end = end
            self.ordinates = ordinates
            self.capacity = capacity
        }

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

        /// A number as `WKTReader` cuts and reads it: first `DecimalText.coordinatePrefix`, then
        /// `DecimalText.shortPrefix` (the common `[-]digits.digits`, bit for bit what `DecimalText.parse` gives)
        /// when a byte that ends a number follows it; anything else is cut and given to `DecimalText.parse`.
        @inline(__always)
        mutating func number() -> Double? {
            // One space, the usual separator, without the loop (any further spaces go to `skipSpaces`).
            if offset < end, base[offset] == 0x20 { offset &+= 1 }
            var i = offset
            if let value = DecimalText.coordinatePrefix(base, &i, end), i == end || Self.endsNumber(base[i]) {
                offset = i
                return value
            }
            skipSpaces()
            let start = offset
            i = offset
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

        /// `(x y, x y, ...)`, ended in `ringEnds`.
        mutating func ring() -> Bool {
            guard take(UInt8(ascii: "(")) else { return false }
            // The common spelling first, in one loop: an optional space, `x y` with one space between, both of
            // `DecimalText.coordinatePrefix`'s form, then `,` or `)` (a subset of what the loop below reads, read
            // the same way). A position spelt otherwise goes to that loop, from its start.
            while count &+ 2 <= capacity {
                var i = offset
                if i < end, base[i] == 0x20 { i &+= 1 }
                guard let longitude = DecimalText.coordinatePrefix(base, &i, end), i < end, base[i] == 0x20 else { break }
                i &+= 1
                guard let latitude = DecimalText.coordinatePrefix(base, &i, end), i < end else { break }
                let next = base[i]
                guard next == UInt8(ascii: ",") || next == UInt8(ascii: ")") else { break }
                ordinates[count] = longitude
                ordinates[count &+ 1] = latitude
                count &+= 2
                offset = i &+ 1
                if next == UInt8(ascii: ")") {
                    ringEnds.append(count / 2)
                    return true
                }
            }
            repeat {
                // Never short (see `parts`); checked so that no text can write past the scratch.
                guard count &+ 2 <= capacity, let longitude = number(), let latitude = number() else { return false }
                ordinates[count] = longitude
                ordinates[count &+ 1] = latitude
                count &+= 2
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: ")")) else { return false }
            ringEnds.append(count / 2)
            return true
        }

        /// `((ring), (ring), ...)`, ended in `polygonEnds`.
        mutating func polygon() -> Bool {
            guard take(UInt8(ascii: "(")) else { return false }
            repeat {
                guard ring() else { return false }
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: ")")) else { return false }
            polygonEnds.append(ringEnds.count)
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
            if kind == .polygon {
                guard polygon() else { return nil }
            } else {
                guard take(UInt8(ascii: "(")) else { return nil }
                repeat {
                    guard polygon() else { return nil }
                } while take(UInt8(ascii: ","))
                guard take(UInt8(ascii: ")")) else { return nil }
            }
            skipSpaces()
            guard offset == end else { return nil }
            var parts = ShapeParts(kind: kind)
            parts.positions = Array(UnsafeBufferPointer(start: ordinates, count: count))
            parts.ringEnds = ringEnds
            parts.polygonEnds = polygonEnds
            return parts
        }
    }
}
