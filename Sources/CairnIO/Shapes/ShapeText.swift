import CairnCore

/// A geometry held in one text field (a CSV column `geometry`, `wkt`, `wkb`, ...): WKT, or WKB as hexadecimal digits
/// (what PostGIS and GDAL export), told apart by the first character.
enum ShapeText {
    /// The unchecked parts of the geometry in `text`.
    /// - Throws: a reason saying what was expected (for the field's rejection).
    /// - Complexity: O(n) in the length of the text.
    static func parts(_ text: String) throws(WKTReader.Failure) -> ShapeParts {
        if WKTReader.looksLikeWKT(text) { return try WKTReader.parts(text) }
        let digits = Array(text.utf8.filter { $0 != 32 && $0 != 9 })
        guard digits.count % 2 == 0, !digits.isEmpty else {
            throw WKTReader.Failure(reason: "expected WKT (such as POLYGON ((...))) or WKB as an even number of hexadecimal digits")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        for pair in stride(from: 0, to: digits.count, by: 2) {
            guard let high = hexValue(digits[pair]), let low = hexValue(digits[pair + 1]) else {
                throw WKTReader.Failure(reason: "expected WKT (such as POLYGON ((...))) or WKB in hexadecimal digits, found '\(Character(Unicode.Scalar(digits[pair])))\(Character(Unicode.Scalar(digits[pair + 1])))' at digit \(pair + 1)")
            }
            bytes.append(high << 4 | low)
        }
        do {
            return try ShapeParts(wkb: bytes)
        } catch {
            throw WKTReader.Failure(reason: error.description)
        }
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
