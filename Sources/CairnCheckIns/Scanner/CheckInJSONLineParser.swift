import CairnIO

/// Reads one JSON-lines check-in: a JSON object per line whose members name the check-in's fields (same names and
/// aliases as the CSV header). Values are handed out as bytes: a string's text, a number's or boolean's text as
/// written; `null` is an absent field; nested values and members with other names are skipped.
///
/// What is a check-in line is CairnIO's one JSON rule (`JSONParser`): a line it refuses is `malformed_row`, with its
/// message. The common line is read by a fast path that accepts only a strict subset of that grammar: one flat
/// object whose keys and string values are printable ASCII without escapes, numbers in JSON's grammar, `true`,
/// `false` and `null`, and no key twice. Anything else (an escape, a non-ASCII byte, a nested value, a syntax
/// error) is handed to `JSONParser`, which decides; so the fast path never refuses a line on its own, and a
/// seeded differential test checks that what it accepts `JSONParser` accepts with the same values.
struct CheckInJSONLineParser {
    /// Unescaped text of lines read by `JSONParser`, sized once per buffer (it never outgrows the buffer).
    private var arena = ScanArena()
    /// Resolved member names seen so far (names repeat on every line).
    private var names: [String: Int] = [:]
    /// The last fast-read line's keys (concatenated), where each ends, and their columns: the lines of a file
    /// repeat their keys in order, so a key is matched by comparing bytes, and a line whose keys are those of a
    /// line already checked for repeats needs no check of its own.
    private var layoutBytes: UnsafeMutablePointer<UInt8>
    private var layoutEnds: UnsafeMutablePointer<Int>
    private var layoutColumns: UnsafeMutablePointer<Int>
    private var layoutCount = 0
    /// This line's keys, as start and length pairs, for the check for repeats when the layout did not match.
    private var keySpans: UnsafeMutablePointer<Int>

    /// The most members a fast-read line may have (more go to `JSONParser`).
    private static let maxFastMembers = 32
    /// The most key bytes a layout keeps.
    private static let maxLayoutBytes = 1 << 10

    init() {
        layoutBytes = .allocate(capacity: Self.maxLayoutBytes)
        layoutEnds = .allocate(capacity: Self.maxFastMembers)
        layoutColumns = .allocate(capacity: Self.maxFastMembers)
        keySpans = .allocate(capacity: 2 * Self.maxFastMembers)
    }

    mutating func deallocate() {
        arena.deallocate()
        layoutBytes.deallocate()
        layoutEnds.deallocate()
        layoutColumns.deallocate()
        keySpans.deallocate()
    }

    /// Prepares for a buffer of `count` bytes.
    mutating func reset(forBufferOf count: Int) {
        arena.reset(forBufferOf: count)
    }

    /// Parses `buffer[start..<end]` (one line, without its line feed); returns the fields, and why the line is not a
    /// check-in object when it is not (then the fields are those read before the problem).
    mutating func parse(_ buffer: UnsafePointer<UInt8>, start: Int, end: Int) -> (CheckInRowFields, String?) {
        var row = CheckInRowFields()
        if readFlat(buffer, start: start, end: end, into: &row) { return (row, nil) }
        return readWithParser(buffer, start: start, end: end, partial: row)
    }

    // MARK: - The fast path

    @inline(__always)
    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }

    @inline(__always)
    private static func skipSpace(_ b: UnsafePointer<UInt8>, _ i: inout Int, _ end: Int) {
        while i < end, isSpace(b[i]) { i += 1 }
    }

    @inline(__always)
    private static func isDigit(_ b: UnsafePointer<UInt8>, _ i: Int, _ end: Int) -> Bool {
        i < end && b[i] &- 0x30 < 10
    }

    /// A string of printable ASCII without escapes, from its opening quote; its content's end, or nil for anything
    /// else (an escape, a control character, a non-ASCII byte, no closing quote).
    @inline(__always)
    private static func plainString(_ b: UnsafePointer<UInt8>, _ i: inout Int, _ end: Int) -> Int? {
        i += 1
        while i < end {
            let c = b[i]
            if c == 0x22 {
                i += 1
                return i - 1
            }
            // 0x20...0x7E except the quote and the backslash.
            guard c &- 0x20 < 0x5F, c != 0x5C else { return nil }
            i += 1
        }
        return nil
    }

    /// A number in JSON's grammar (`-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`); false when it is not one.
    @inline(__always)
    private static func number(_ b: UnsafePointer<UInt8>, _ i: inout Int, _ end: Int) -> Bool {
        if b[i] == 0x2D { i += 1 }
        guard isDigit(b, i, end) else { return false }
        if b[i] == 0x30 {
            i += 1
        } else {
            while isDigit(b, i, end) { i += 1 }
        }
        if i < end, b[i] == 0x2E {
            i += 1
            guard isDigit(b, i, end) else { return false }
            while isDigit(b, i, end) { i += 1 }
        }
        if i < end, b[i] | 0x20 == 0x65 {
            i += 1
            if i < end, b[i] == 0x2B || b[i] == 0x2D { i += 1 }
            guard isDigit(b, i, end) else { return false }
            while isDigit(b, i, end) { i += 1 }
        }
        return true
    }

    /// Whether `b[i...]` starts with the literal `word` (4 or 5 ASCII bytes).
    @inline(__always)
    private static func literal(_ b: UnsafePointer<UInt8>, _ i: inout Int, _ end: Int, _ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard end - i >= count else { return false }
        let text = word.utf8Start
        for k in 0..<count where b[i + k] != text[k] { return false }
        i += count
        return true
    }

    /// Reads a line of the fast subset; false when the line is not one (then `row` holds the fields read so far).
    private mutating func readFlat(_ b: UnsafePointer<UInt8>, start: Int, end: Int, into row: inout CheckInRowFields) -> Bool {
        var i = start
        Self.skipSpace(b, &i, end)
        guard i < end, b[i] == 0x7B else { return false }
        i += 1
        Self.skipSpace(b, &i, end)
        var members = 0
        var matchesLayout = true
        if i < end, b[i] == 0x7D {
            i += 1
        } else {
            while true {
                guard i < end, b[i] == 0x22, members < Self.maxFastMembers else { return false }
                let keyStart = i + 1
                guard let keyEnd = Self.plainString(b, &i, end) else { return false }
                let keyCount = keyEnd - keyStart
                keySpans[2 &* members] = keyStart
                keySpans[2 &* members &+ 1] = keyCount
                Self.skipSpace(b, &i, end)
                guard i < end, b[i] == 0x3A else { return false }
                i += 1
                Self.skipSpace(b, &i, end)
                guard i < end else { return false }

                // The key's column: by the layout when the line follows it, else by name.
                var column = -1
                if matchesLayout, members < layoutCount {
                    let layoutStart = members == 0 ? 0 : layoutEnds[members - 1]
                    if layoutEnds[members] - layoutStart == keyCount,
                       Self.sameBytes(b + keyStart, UnsafePointer(layoutBytes + layoutStart), keyCount) {
                        column = layoutColumns[members]
                    } else {
                        matchesLayout = false
                    }
                } else {
                    matchesLayout = false
                }
                if !matchesLayout { column = resolve(CheckInField(base: b + keyStart, count: keyCount).text) }

                // The value: a plain string, a number, or a literal; anything else goes to the parser.
                let valueStart = i
                var value: CheckInField?
                switch b[i] {
                case 0x22:
                    guard let valueEnd = Self.plainString(b, &i, end) else { return false }
                    value = CheckInField(base: b + valueStart + 1, count: valueEnd - valueStart - 1)
                case 0x2D, 0x30...0x39:
                    guard Self.number(b, &i, end) else { return false }
                    value = CheckInField(base: b + valueStart, count: i - valueStart)
                case 0x74:
                    guard Self.literal(b, &i, end, "true") else { return false }
                    value = CheckInField(base: b + valueStart, count: 4)
                case 0x66:
                    guard Self.literal(b, &i, end, "false") else { return false }
                    value = CheckInField(base: b + valueStart, count: 5)
                case 0x6E:
                    guard Self.literal(b, &i, end, "null") else { return false }
                default:
                    return false
                }
                if let value { Self.assign(value, to: column, in: &row) }
                members += 1
                Self.skipSpace(b, &i, end)
                guard i < end else { return false }
                if b[i] == 0x2C {
                    i += 1
                    Self.skipSpace(b, &i, end)
                    continue
                }
                guard b[i] == 0x7D else { return false }
                i += 1
                break
            }
        }
        Self.skipSpace(b, &i, end)
        guard i == end else { return false }
        // The keys of a line already checked, in the same order, repeat nothing; other lines are checked and
        // become the layout.
        if !(matchesLayout && members == layoutCount) {
            guard !repeatsAKey(b, members: members) else { return false }
            saveLayout(b, members: members)
        }
        return true
    }

    /// Whether `count` bytes at `a` and `b` are equal (keys are short: a loop beats a call to `memcmp`).
    @inline(__always)
    private static func sameBytes(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        for k in 0..<count where a[k] != b[k] { return false }
        return true
    }

    /// Whether two of the line's keys are the same bytes.
    private func repeatsAKey(_ b: UnsafePointer<UInt8>, members: Int) -> Bool {
        for k in 0..<members {
            let start = keySpans[2 * k], count = keySpans[2 * k + 1]
            for j in 0..<k where keySpans[2 * j + 1] == count && Self.sameBytes(b + keySpans[2 * j], b + start, count) {
                return true
            }
        }
        return false
    }

    /// Keeps the line's keys and their columns as the layout the next lines are matched against.
    private mutating func saveLayout(_ b: UnsafePointer<UInt8>, members: Int) {
        layoutCount = 0
        var used = 0
        for k in 0..<members {
            let start = keySpans[2 * k], count = keySpans[2 * k + 1]
            guard used + count <= Self.maxLayoutBytes else { return }
            (layoutBytes + used).update(from: b + start, count: count)
            used += count
            layoutEnds[k] = used
            layoutColumns[k] = resolve(CheckInField(base: b + start, count: count).text)
        }
        layoutCount = members
    }

    @inline(__always)
    private static func assign(_ value: CheckInField, to column: Int, in row: inout CheckInRowFields) {
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

    private mutating func resolve(_ text: String) -> Int {
        if let known = names[text] { return known }
        let column = CheckInColumn.resolve(text)?.rawValue ?? -1
        if names.count < 1024 { names[text] = column }
        return column
    }

    // MARK: - Through the one reader

    /// Reads the line with `JSONParser`: its fields when it accepts the line (text copied into the arena), else
    /// `partial` and its message.
    private mutating func readWithParser(_ b: UnsafePointer<UInt8>, start: Int, end: Int,
                                         partial: CheckInRowFields) -> (CheckInRowFields, String?) {
        let value: JSONValue
        do throws(JSONSyntaxError) {
            value = try JSONParser.parse(UnsafeRawBufferPointer(start: b + start, count: end - start))
        } catch {
            return (partial, "invalid JSON at column \(error.column): \(error.message)")
        }
        guard case .object(let members) = value else { return (partial, "expected a JSON object, got \(value.kindPhrase)") }
        var row = CheckInRowFields()
        for member in members {
            let column = resolve(member.key)
            guard column >= 0 else { continue }
            let text: String
            switch member.value {
            case .string(let string): text = string
            case .number: text = member.numberText ?? member.value.jsonText
            case .bool(let flag): text = flag ? "true" : "false"
            case .null, .array, .object: continue
            }
            Self.assign(copyToArena(text), to: column, in: &row)
        }
        return (row, nil)
    }

    /// The text's bytes in the arena. The parser's text of a member is never longer than the member in the line,
    /// and the arena is as long as the buffer, so it never overflows.
    private mutating func copyToArena(_ text: String) -> CheckInField {
        let out = arena.next
        var count = 0
        for byte in text.utf8 where arena.used + count < arena.capacity {
            out[count] = byte
            count += 1
        }
        arena.used += count
        return CheckInField(base: UnsafePointer(out), count: count)
    }
}
