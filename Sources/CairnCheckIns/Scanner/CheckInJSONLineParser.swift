/// Reads one JSON-lines check-in: a JSON object per line whose members name the check-in's fields
/// (same names and aliases as the CSV header). String values are unescaped into an arena sized once per
/// buffer; numbers keep their text; `null` is an absent field; members with other names are skipped.
struct CheckInJSONLineParser {
    private var arena: UnsafeMutablePointer<UInt8>
    private var arenaCapacity: Int
    private var arenaUsed = 0
    /// Resolved member names seen so far (names repeat on every line).
    private var names: [String: Int] = [:]

    init() {
        arenaCapacity = 1 << 12
        arena = .allocate(capacity: arenaCapacity)
    }

    mutating func deallocate() { arena.deallocate() }

    /// Prepares for a buffer of `count` bytes.
    mutating func reset(forBufferOf count: Int) {
        arenaUsed = 0
        if arenaCapacity < count {
            arena.deallocate()
            arenaCapacity = max(count, 2 * arenaCapacity)
            arena = .allocate(capacity: arenaCapacity)
        }
    }

    private struct Failure: Error {
        let message: String
    }

    /// Parses `buffer[start..<end]` (one line, without its line feed); returns the fields or why the line is not
    /// a check-in object.
    mutating func parse(_ buffer: UnsafePointer<UInt8>, start: Int, end: Int) -> (CheckInRowFields, String?) {
        var row = CheckInRowFields()
        var i = start
        do {
            skipSpace(buffer, &i, end)
            guard i < end, buffer[i] == 0x7B else { throw Failure(message: "expected a JSON object") }
            i += 1
            skipSpace(buffer, &i, end)
            if i < end, buffer[i] == 0x7D {
                i += 1
            } else {
                while true {
                    skipSpace(buffer, &i, end)
                    guard i < end, buffer[i] == 0x22 else { throw Failure(message: "expected a member name") }
                    let name = try string(buffer, &i, end)
                    skipSpace(buffer, &i, end)
                    guard i < end, buffer[i] == 0x3A else { throw Failure(message: "expected ':' after a member name") }
                    i += 1
                    skipSpace(buffer, &i, end)
                    let column = resolve(name)
                    let value = try value(buffer, &i, end)
                    if column >= 0, let value {
                        switch CheckInColumn(rawValue: column) {
                        case .id: row.id = value
                        case .user: row.user = value
                        case .event: row.event = value
                        case .place: row.place = value
                        case .latitude: row.latitude = value
                        case .longitude: row.longitude = value
                        case .time: row.time = value
                        case .accuracy: row.accuracy = value
                        case nil: break
                        }
                    }
                    skipSpace(buffer, &i, end)
                    guard i < end else { throw Failure(message: "unterminated object") }
                    if buffer[i] == 0x2C { i += 1; continue }
                    guard buffer[i] == 0x7D else { throw Failure(message: "expected ',' or '}'") }
                    i += 1
                    break
                }
            }
            skipSpace(buffer, &i, end)
            guard i == end else { throw Failure(message: "unexpected text after the object") }
            return (row, nil)
        } catch {
            return (row, (error as? Failure)?.message ?? "unreadable JSON")
        }
    }

    private mutating func resolve(_ name: CheckInField) -> Int {
        let text = name.text
        if let known = names[text] { return known }
        let column = CheckInColumn.resolve(text)?.rawValue ?? -1
        if names.count < 1024 { names[text] = column }
        return column
    }

    @inline(__always)
    private func skipSpace(_ b: UnsafePointer<UInt8>, _ i: inout Int, _ end: Int) {
        while i < end, b[i] == 0x20 || b[i] == 0x09 || b[i] == 0x0D || b[i] == 0x0A { i += 1 }
    }

    /// A value: a field for strings, numbers and booleans (their text), nil for null and for nested values (skipped).
    private mutating func value(_ b: UnsafePointer<UInt8>, _ i: inout Int, _ end: Int) throws(Failure) -> CheckInField? {
        guard i < end else { throw Failure(message: "missing value") }
        switch b[i] {
        case 0x22:
            return try string(b, &i, end)
        case 0x7B, 0x5B:
            try skipNested(b, &i, end)
            return nil
        default:
            let start = i
            while i < end, b[i] != 0x2C, b[i] != 0x7D, b[i] != 0x20, b[i] != 0x09, b[i] != 0x0D { i += 1 }
            let field = CheckInField(base: b + start, count: i - start)
            if field.count == 4, b[start] == 0x6E, b[start + 1] == 0x75, b[start + 2] == 0x6C, b[start + 3] == 0x6C { return nil } // null
            guard field.count > 0 else { throw Failure(message: "missing value") }
            return field
        }
    }

    private func skipNested(_ b: UnsafePointer<UInt8>, _ i: inout Int, _ end: Int) throws(Failure) {
        var depth = 0
        var inString = false
        while i < end {
            let c = b[i]
            if inString {
                if c == 0x5C { i += 1 } else if c == 0x22 { inString = false }
            } else if c == 0x22 {
                inString = true
            } else if c == 0x7B || c == 0x5B {
                depth += 1
            } else if c == 0x7D || c == 0x5D {
                depth -= 1
                if depth == 0 { i += 1; return }
            }
            i += 1
        }
        throw Failure(message: "unterminated nested value")
    }

    /// A string from its opening quote, unescaped into the arena unless it has no escapes.
    private mutating func string(_ b: UnsafePointer<UInt8>, _ i: inout Int, _ end: Int) throws(Failure) -> CheckInField {
        i += 1
        let start = i
        while i < end, b[i] != 0x22, b[i] != 0x5C { i += 1 }
        guard i < end else { throw Failure(message: "unterminated string") }
        if b[i] == 0x22 {
            i += 1
            return CheckInField(base: b + start, count: i - 1 - start)
        }
        // Escapes: copy into the arena (never longer than the input).
        let out = arena + arenaUsed
        var n = i - start
        out.update(from: b + start, count: n)
        while i < end {
            let c = b[i]
            if c == 0x22 {
                i += 1
                arenaUsed += n
                return CheckInField(base: UnsafePointer(out), count: n)
            }
            if c != 0x5C {
                out[n] = c
                n += 1
                i += 1
                continue
            }
            guard i + 1 < end else { break }
            let e = b[i + 1]
            i += 2
            switch e {
            case 0x22, 0x5C, 0x2F: out[n] = e; n += 1
            case 0x62: out[n] = 0x08; n += 1
            case 0x66: out[n] = 0x0C; n += 1
            case 0x6E: out[n] = 0x0A; n += 1
            case 0x72: out[n] = 0x0D; n += 1
            case 0x74: out[n] = 0x09; n += 1
            case 0x75:
                guard var scalar = hex4(b, i, end) else { throw Failure(message: "bad \\u escape") }
                i += 4
                if scalar >= 0xD800, scalar < 0xDC00, i + 6 <= end, b[i] == 0x5C, b[i + 1] == 0x75,
                   let low = hex4(b, i + 2, end), low >= 0xDC00, low < 0xE000 {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    i += 6
                }
                let unicode = Unicode.Scalar(scalar) ?? "\u{FFFD}"
                for byte in String(unicode).utf8 { out[n] = byte; n += 1 }
            default:
                throw Failure(message: "bad escape")
            }
        }
        throw Failure(message: "unterminated string")
    }

    private func hex4(_ b: UnsafePointer<UInt8>, _ i: Int, _ end: Int) -> UInt32? {
        guard i + 4 <= end else { return nil }
        var value: UInt32 = 0
        for k in 0..<4 {
            let c = b[i + k]
            let digit: UInt32
            switch c {
            case 0x30...0x39: digit = UInt32(c - 0x30)
            case 0x41...0x46: digit = UInt32(c - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(c - 0x61 + 10)
            default: return nil
            }
            value = value << 4 | digit
        }
        return value
    }
}
