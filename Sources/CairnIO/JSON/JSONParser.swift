/// A strict RFC 8259 JSON parser over UTF-8 bytes: the one JSON reader of Cairn. GeoJSON, GeoJSON text sequences,
/// JSON lines, the `.json` format rule and the store's attribute text all parse through it; the streaming readers
/// only frame values for it (`JSONByteCursor` holds one chunk, `JSONValueCutter` cuts a value out of a stream,
/// `DelimitedRecordSplitter` cuts records at newlines or RS bytes), so each feature is parsed from one buffer.
///
/// Strict means: no comments, no trailing commas, no leading zeros, no `NaN`, no raw control characters in
/// strings, `\u` surrogates must pair, strings must be valid UTF-8, no key twice in one object (RFC 8259 leaves a
/// repeated name's meaning open, so a record could mean two things), and nothing but whitespace may follow the value.
/// Nesting is limited to `maxDepth` so hostile input cannot exhaust the stack.
/// Numbers use Clinger's fast path (exact when the decimal significand fits in 2^53 and |exponent| <= 22) and
/// fall back to the standard library's correctly rounded conversion otherwise.
public struct JSONParser {
    /// The deepest nesting of arrays and objects accepted.
    static let maxDepth = 512

    private let base: UnsafePointer<UInt8>
    private let count: Int
    private var index = 0
    private var line: Int
    /// The (possibly negative) index at which the current line starts, so that column = index - lineStart + 1.
    private var lineStart: Int
    private var depth = 0
    /// Whether the last string parsed had escapes (its raw bytes are not its text): set by `parseString`'s slow path.
    private var keyHadEscapes = false

    private init(base: UnsafePointer<UInt8>, count: Int, firstLine: Int, firstColumn: Int) {
        self.base = base
        self.count = count
        self.line = firstLine
        self.lineStart = -(firstColumn - 1)
    }

    /// Parses one JSON text. `firstLine` and `firstColumn` place the first byte in the file for error messages.
    /// - Throws: `JSONSyntaxError` with the line and column of the first problem.
    /// - Complexity: O(n) in the number of bytes.
    public static func parse(_ bytes: UnsafeRawBufferPointer, firstLine: Int = 1, firstColumn: Int = 1) throws(JSONSyntaxError) -> JSONValue {
        guard let raw = bytes.baseAddress, bytes.count > 0 else {
            throw JSONSyntaxError(message: "empty input, expected a JSON value", line: firstLine, column: firstColumn)
        }
        var parser = JSONParser(base: raw.assumingMemoryBound(to: UInt8.self), count: bytes.count,
                                firstLine: firstLine, firstColumn: firstColumn)
        let value = try parser.parseValue()
        parser.skipWhitespace()
        if parser.index < parser.count {
            throw parser.error("unexpected \(describeJSONByte(parser.base[parser.index])) after the JSON value")
        }
        return value
    }

    /// Parses a byte array; see `parse(_:firstLine:firstColumn:)`.
    /// - Complexity: O(n) in the number of bytes.
    public static func parse(_ bytes: [UInt8], firstLine: Int = 1, firstColumn: Int = 1) throws(JSONSyntaxError) -> JSONValue {
        let result: Result<JSONValue, JSONSyntaxError> = bytes.withUnsafeBytes { buffer in
            do throws(JSONSyntaxError) {
                return .success(try parse(buffer, firstLine: firstLine, firstColumn: firstColumn))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Parses a string's UTF-8 text; see `parse(_:firstLine:firstColumn:)`.
    /// - Complexity: O(n) in the number of bytes.
    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        var text = text
        // `withUTF8` only rethrows untyped errors: carry the typed one out in a Result.
        let result: Result<JSONValue, JSONSyntaxError> = text.withUTF8 { buffer in
            do throws(JSONSyntaxError) {
                return .success(try parse(UnsafeRawBufferPointer(buffer)))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    // MARK: - Helpers

    private func error(_ message: String, at position: Int? = nil) -> JSONSyntaxError {
        JSONSyntaxError(message: message, line: line, column: (position ?? index) - lineStart + 1)
    }

    private mutating func skipWhitespace() {
        while index < count {
            switch base[index] {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
            default: return
            }
        }
    }

    // MARK: - Values

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        skipWhitespace()
        guard index < count else { throw error("unexpected end of input, expected a value") }
        switch base[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        case let byte: throw error("unexpected \(describeJSONByte(byte)), expected a value")
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        let length = literal.utf8CodeUnitCount
        let start = literal.utf8Start
        for offset in 0..<length {
            guard index + offset < count, base[index + offset] == start[offset] else {
                throw error("invalid literal, expected '\(literal)'")
            }
        }
        index += length
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > JSONParser.maxDepth { throw error("nesting deeper than \(JSONParser.maxDepth) levels") }
    }

    private mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        index += 1 // '{'
        var members: [JSONMember] = []
        var keyIndex: Set<String>?
        var keyFilter: UInt64 = 0
        var escapedKeys = false
        skipWhitespace()
        if index < count, base[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < count else { throw error("unexpected end of input inside an object") }
            guard base[index] == UInt8(ascii: "\"") else {
                throw error("expected a string key in double quotes, got \(describeJSONByte(base[index]))")
            }
            let keyStart = index
            keyHadEscapes = false
            let key = try parseString()
            // A 64-bit filter over the keys' raw bytes rules out most repeats without comparing strings; raw bytes
            // are the key's own only without escapes, so after an escaped key, and in big objects, every key is
            // compared (`checkUnique`).
            let rawLength = index - keyStart - 2
            let bit: UInt64 = 1 << ((UInt64(rawLength) &* 0x9E37 &+ UInt64(base[keyStart + 1]) &* 31 &+ UInt64(base[index - 2])) & 63)
            escapedKeys = escapedKeys || keyHadEscapes
            if escapedKeys || keyFilter & bit != 0 || members.count >= JSONParser.keyIndexThreshold {
                try checkUnique(key, in: members, index: &keyIndex, at: keyStart)
            }
            keyFilter |= bit
            skipWhitespace()
            guard index < count, base[index] == UInt8(ascii: ":") else {
                throw error("expected ':' after the key \"\(key)\"")
            }
            index += 1
            skipWhitespace()
            let valueStart = index
            let value = try parseValue()
            var numberText: String?
            if case .number = value {
                numberText = String(decoding: UnsafeBufferPointer(start: base + valueStart, count: index - valueStart), as: UTF8.self)
            }
            members.append(JSONMember(key: key, value: value, numberText: numberText))
            skipWhitespace()
            guard index < count else { throw error("unexpected end of input inside an object") }
            switch base[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                depth -= 1
                return .object(members)
            case let byte: throw error("expected ',' or '}' in an object, got \(describeJSONByte(byte))")
            }
        }
    }

    /// Refuses a key already in the object. RFC 8259 leaves the meaning of a repeated name open (parsers take the
    /// first, the last, or refuse), so a record with one could mean two things to two readers: it is refused.
    /// Keys are compared code unit by code unit (RFC 8259, section 8.3), not by Swift's canonical equivalence.
    /// Small objects compare keys in place; from `keyIndexThreshold` members on, a set keeps the cost linear.
    private func checkUnique(_ key: String, in members: [JSONMember], index keyIndex: inout Set<String>?,
                             at keyStart: Int) throws(JSONSyntaxError) {
        // The UTF-8 length first (O(1)): the keys of one object mostly differ in length; then the bytes.
        let length = key.utf8.count
        func same(_ other: String) -> Bool { other.utf8.count == length && other.utf8.elementsEqual(key.utf8) }
        var repeated = false
        if members.count < JSONParser.keyIndexThreshold {
            for member in members where same(member.key) { repeated = true; break }
        } else {
            if keyIndex == nil { keyIndex = Set(members.map(\.key)) }
            // A set finds keys that look alike; only those are compared byte by byte.
            if keyIndex?.insert(key).inserted == false { repeated = members.contains { same($0.key) } }
        }
        if repeated {
            throw error("duplicate key \"\(key.prefix(60))\" in an object (a repeated name is refused: readers disagree on its meaning)", at: keyStart)
        }
    }

    /// The member count from which duplicate keys are found with a set rather than by comparing in place.
    private static let keyIndexThreshold = 12

    private mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        index += 1 // '['
        var values: [JSONValue] = []
        skipWhitespace()
        if index < count, base[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(values)
        }
        while true {
            values.append(try parseValue())
            skipWhitespace()
            guard index < count else { throw error("unexpected end of input inside an array") }
            switch base[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                depth -= 1
                return .array(values)
            case let byte: throw error("expected ',' or ']' in an array, got \(describeJSONByte(byte))")
            }
        }
    }

    // MARK: - Strings

    /// Parses a string starting at its opening quote.
    private mutating func parseString() throws(JSONSyntaxError) -> String {
        let quote = index
        index += 1
        let start = index
        // Fast path: no escapes.
        var union: UInt8 = 0
        while index < count {
            let byte = base[index]
            union |= byte
            if byte == UInt8(ascii: "\"") {
                let bytes = UnsafeBufferPointer(start: base + start, count: index - start)
                index += 1
                guard let text = JSONParser.makeString(bytes, isASCII: union < 0x80) else {
                    throw error("invalid UTF-8 in a string", at: quote)
                }
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("control character \(describeJSONByte(byte)) in a string must be escaped") }
            index += 1
        }
        guard index < count else { throw error("unterminated string", at: quote) }
        // Slow path: decode escapes into a byte buffer.
        keyHadEscapes = true
        var bytes = [UInt8](UnsafeBufferPointer(start: base + start, count: index - start))
        while index < count {
            let byte = base[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                let text = bytes.withUnsafeBufferPointer { JSONParser.makeString($0, isASCII: false) }
                guard let text else { throw error("invalid UTF-8 in a string", at: quote) }
                return text
            }
            if byte < 0x20 { throw error("control character \(describeJSONByte(byte)) in a string must be escaped") }
            if byte != UInt8(ascii: "\\") {
                bytes.append(byte)
                index += 1
                continue
            }
            let escapeStart = index
            index += 1
            guard index < count else { break }
            let code = base[index]
            index += 1
            switch code {
            case UInt8(ascii: "\""): bytes.append(0x22)
            case UInt8(ascii: "\\"): bytes.append(0x5C)
            case UInt8(ascii: "/"): bytes.append(0x2F)
            case UInt8(ascii: "b"): bytes.append(0x08)
            case UInt8(ascii: "f"): bytes.append(0x0C)
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "u"):
                var scalarValue = try parseHex4(escapeStart: escapeStart)
                if (0xD800..<0xDC00).contains(scalarValue) {
                    guard index + 1 < count, base[index] == UInt8(ascii: "\\"), base[index + 1] == UInt8(ascii: "u") else {
                        throw error("unpaired surrogate in a \\u escape (a high surrogate must be followed by a low one)", at: escapeStart)
                    }
                    let lowStart = index
                    index += 2
                    let low = try parseHex4(escapeStart: lowStart)
                    guard (0xDC00..<0xE000).contains(low) else {
                        throw error("unpaired surrogate in a \\u escape (expected a low surrogate)", at: lowStart)
                    }
                    scalarValue = 0x10000 + ((scalarValue - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00..<0xE000).contains(scalarValue) {
                    throw error("unpaired low surrogate in a \\u escape", at: escapeStart)
                }
                guard let scalar = Unicode.Scalar(scalarValue) else { throw error("invalid \\u escape", at: escapeStart) }
                bytes.append(contentsOf: UTF8.encode(scalar).map { Array($0) } ?? [])
            default:
                throw error("invalid escape '\\\(Character(Unicode.Scalar(code)))' in a string", at: escapeStart)
            }
        }
        throw error("unterminated string", at: quote)
    }

    /// A string from UTF-8 bytes, or nil when they are not valid UTF-8.
    /// (`String(decoding:)` repairs invalid input with U+FFFD, so the input was valid exactly when the result's
    /// bytes equal it; this avoids the generic `String(validating:)`, which is slow here.)
    private static func makeString(_ bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        if isASCII { return text }
        return text.utf8.elementsEqual(bytes) ? text : nil
    }

    private mutating func parseHex4(escapeStart: Int) throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= count else { throw error("incomplete \\u escape (expected 4 hex digits)", at: escapeStart) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = base[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid \\u escape (expected 4 hex digits)", at: escapeStart)
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    // MARK: - Numbers

    private static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    private func isDigit(_ position: Int) -> Bool {
        position < count && base[position] >= UInt8(ascii: "0") && base[position] <= UInt8(ascii: "9")
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> Double {
        let start = index
        var negative = false
        if base[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        var significand: UInt64 = 0
        var significantDigits = 0
        var decimalExponent = 0
        guard isDigit(index) else { throw error("expected a digit in a number") }
        if base[index] == UInt8(ascii: "0") {
            index += 1
            if isDigit(index) { throw error("numbers must not have leading zeros", at: start) }
        } else {
            while isDigit(index) {
                if significantDigits < 19 {
                    significand = significand &* 10 &+ UInt64(base[index] - UInt8(ascii: "0"))
                    significantDigits += 1
                } else {
                    decimalExponent += 1
                    significantDigits += 1
                }
                index += 1
            }
        }
        if index < count, base[index] == UInt8(ascii: ".") {
            index += 1
            guard isDigit(index) else { throw error("expected a digit after the decimal point") }
            while isDigit(index) {
                let digit = UInt64(base[index] - UInt8(ascii: "0"))
                if significantDigits < 19 {
                    if significand != 0 || digit != 0 { significantDigits += 1 }
                    significand = significand &* 10 &+ digit
                    decimalExponent -= 1
                } else {
                    significantDigits += 1
                }
                index += 1
            }
        }
        var exponentTooLarge = false
        if index < count, base[index] == UInt8(ascii: "e") || base[index] == UInt8(ascii: "E") {
            index += 1
            var exponentNegative = false
            if index < count, base[index] == UInt8(ascii: "+") || base[index] == UInt8(ascii: "-") {
                exponentNegative = base[index] == UInt8(ascii: "-")
                index += 1
            }
            guard isDigit(index) else { throw error("expected a digit in the exponent") }
            var exponent = 0
            while isDigit(index) {
                if exponent < 100_000 { exponent = exponent * 10 + Int(base[index] - UInt8(ascii: "0")) } else { exponentTooLarge = true }
                index += 1
            }
            decimalExponent += exponentNegative ? -exponent : exponent
        }
        // Clinger's fast path: both the significand and the power of ten are exact doubles, so one
        // correctly rounded multiplication or division gives the correctly rounded result.
        if significantDigits <= 19, !exponentTooLarge, significand < (1 << 53), abs(decimalExponent) <= 22 {
            let magnitude = decimalExponent >= 0
                ? Double(significand) * JSONParser.exactPowersOfTen[decimalExponent]
                : Double(significand) / JSONParser.exactPowersOfTen[-decimalExponent]
            return negative ? -magnitude : magnitude
        }
        let text = String(decoding: UnsafeBufferPointer(start: base + start, count: index - start), as: UTF8.self)
        guard let value = Double(text) else { throw error("invalid number '\(text)'", at: start) }
        return value
    }
}

/// A byte as a phrase for messages: `'x'` for printable ASCII, `byte 0xNN` otherwise.
func describeJSONByte(_ byte: UInt8) -> String {
    if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
    if byte == 0x1E { return "record separator byte 0x1E" }
    let hex = String(byte, radix: 16, uppercase: true)
    return "byte 0x" + (hex.count == 1 ? "0" + hex : hex)
}
