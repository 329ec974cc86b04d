
/// Splits CSV bytes (RFC 4180's `"` quoting with `""` for a quote, CRLF or LF line ends) into records and fields,
/// without allocating per record: fields are spans of the input; quoted fields are unescaped into an arena
/// sized once for the whole buffer.
///
/// Records are lines: they end at every line feed (or at the end of the buffer), and a quoted field may not span
/// lines (a quote still open at the line's end is a stray one: that line is the bad record). Unlike RFC 4180, so
/// that a stray quote never swallows the good rows after it, and so that any line feed is a place to cut a file
/// for parallel work. This is `cairn import`'s rule for a stray quote (`CSVTokenizer`: the record is rejected at the
/// line where it started, reading resumes on the next line) with every quoted field held to one line. Text after a
/// closing quote stays in the field, as import reads it. The buffer handed to it must start at a record boundary.
struct CheckInCSVScanner {
    /// Unescaped quoted fields.
    private var arena = ScanArena()
    /// The current record's fields.
    private(set) var fields: UnsafeMutablePointer<CheckInField>
    private(set) var fieldCount = 0
    let maxFields: Int

    init(maxFields: Int = 256) {
        self.maxFields = maxFields
        fields = .allocate(capacity: maxFields)
    }

    /// Frees the scanner's memory; call once when done.
    mutating func deallocate() {
        fields.deallocate()
        arena.deallocate()
    }

    /// Prepares for a buffer of `count` bytes (the arena must hold every quoted field of it).
    mutating func reset(forBufferOf count: Int) {
        arena.reset(forBufferOf: count)
    }

    /// The outcome of scanning one record.
    enum Outcome {
        /// A record; `fieldCount` fields; `more` says whether the field count exceeded `maxFields`.
        case record(tooManyFields: Bool)
        /// A quote opened and not closed on its line: the record is that line alone (the quote is a stray one),
        /// so the lines after it are read as records of their own.
        case unterminatedQuote
    }

    /// Scans the record starting at `start` (< `end`); returns the outcome, the start of the next record and
    /// the number of line feeds consumed (for line numbers).
    ///
    /// Eight bytes are examined at a time (`CheckInSpecialBytes`): each word gives a mask of its `,`, line
    /// feed and `"` bytes, and the fields between them are cut from the mask without touching the other bytes.
    /// A `"` counts only at the start of a field (a quoted field); elsewhere it is text, as before.
    /// - Complexity: O(n) in the record's length.
    @inline(__always)
    mutating func scanRecord(_ buffer: UnsafePointer<UInt8>, start: Int, end: Int) -> (Outcome, next: Int, lines: Int) {
        fieldCount = 0
        var tooMany = false
        let lines = 0
        var fieldStart = start
        var word = start
        while true {
            let wordEnd = min(word &+ 8, end)
            var mask = wordEnd &- word == 8 ? CheckInSpecialBytes.mask(buffer + word) : CheckInSpecialBytes.mask(buffer + word, count: wordEnd &- word)
            var resume = -1
            while mask != 0 {
                let p = word &+ mask.trailingZeroBitCount >> 3
                mask &= mask &- 1
                let c = buffer[p]
                if c == 0x2C {
                    append(CheckInField(base: buffer + fieldStart, count: p &- fieldStart), &tooMany)
                    fieldStart = p &+ 1
                } else if c == 0x0A {
                    var fieldEnd = p
                    if fieldEnd > fieldStart, buffer[fieldEnd &- 1] == 0x0D { fieldEnd -= 1 }
                    append(CheckInField(base: buffer + fieldStart, count: fieldEnd &- fieldStart), &tooMany)
                    return (.record(tooManyFields: tooMany), p &+ 1, lines &+ 1)
                } else if p == fieldStart { // '"' opening a quoted field
                    let (ok, after, quoted, inPlace) = scanQuoted(buffer, start: p &+ 1, end: end)
                    var field = quoted
                    guard ok else {
                        // A stray quote: the bad record is the record's first line; the next line starts afresh.
                        var lineEnd = start
                        while lineEnd < end, buffer[lineEnd] != 0x0A { lineEnd += 1 }
                        return lineEnd < end ? (.unterminatedQuote, lineEnd + 1, 1) : (.unterminatedQuote, end, 0)
                    }
                    var i = after
                    while i < end, buffer[i] != 0x2C, buffer[i] != 0x0A { i += 1 }
                    // Text between the closing quote and the separator stays in the field, as `cairn import` reads it
                    // (`"p"1` is `p1`, not `p`); a CR before the line end is the line end.
                    var tailEnd = i
                    if i >= end || buffer[i] == 0x0A, tailEnd > after, buffer[tailEnd &- 1] == 0x0D { tailEnd -= 1 }
                    if tailEnd > after {
                        // The tail joins the field in the arena: a field still in the buffer goes there first.
                        if inPlace, let base = field.base {
                            field = CheckInField(base: UnsafePointer(arena.next), count: field.count)
                            appendToArena(base, count: field.count)
                        }
                        appendToArena(buffer + after, count: tailEnd &- after)
                        append(CheckInField(base: field.base, count: field.count &+ tailEnd &- after), &tooMany)
                    } else {
                        append(field, &tooMany)
                    }
                    if i >= end { return (.record(tooManyFields: tooMany), end, lines) }
                    if buffer[i] == 0x0A { return (.record(tooManyFields: tooMany), i + 1, lines + 1) }
                    fieldStart = i &+ 1
                    resume = fieldStart
                    break
                }
            }
            if resume >= 0 {
                word = resume
                if word < end { continue }
            } else if wordEnd < end {
                word = wordEnd
                continue
            }
            // The buffer ends inside the record: its last field runs to the end.
            var fieldEnd = end
            if fieldEnd > fieldStart, buffer[fieldEnd &- 1] == 0x0D { fieldEnd -= 1 }
            append(CheckInField(base: buffer + fieldStart, count: fieldEnd &- fieldStart), &tooMany)
            return (.record(tooManyFields: tooMany), end, lines)
        }
    }

    /// A quoted field from just after its opening quote; not ok when the line (or the buffer) ends before the
    /// closing quote. A field with no `""` in it stays where it is in the buffer (`inPlace`; found eight bytes at
    /// a time: a park's WKT is a long quoted field); another is unescaped into the arena.
    @inline(__always)
    private mutating func scanQuoted(_ buffer: UnsafePointer<UInt8>, start: Int, end: Int)
        -> (ok: Bool, after: Int, field: CheckInField, inPlace: Bool) {
        var i = start
        while i &+ 8 <= end {
            let mask = CheckInSpecialBytes.quoteOrLineFeedMask(buffer + i)
            if mask != 0 {
                i &+= mask.trailingZeroBitCount >> 3
                break
            }
            i &+= 8
        }
        while i < end, buffer[i] != 0x22, buffer[i] != 0x0A { i &+= 1 }
        if i < end, buffer[i] == 0x22, i &+ 1 >= end || buffer[i &+ 1] != 0x22 {
            return (true, i &+ 1, CheckInField(base: buffer + start, count: i &- start), true)
        }
        let (ok, after, field) = unescapeQuoted(buffer, start: start, end: end)
        return (ok, after, field, false)
    }

    /// `scanQuoted` for a field with `""` in it (or not closed on its line): unescaped into the arena.
    private mutating func unescapeQuoted(_ buffer: UnsafePointer<UInt8>, start: Int, end: Int) -> (Bool, Int, CheckInField) {
        var i = start
        let out = arena.next
        var n = 0
        while i < end {
            let c = buffer[i]
            if c == 0x22 {
                if i + 1 < end, buffer[i + 1] == 0x22 {
                    out[n] = 0x22
                    n += 1
                    i += 2
                    continue
                }
                arena.used += n
                return (true, i + 1, CheckInField(base: UnsafePointer(out), count: n))
            }
            // A quoted field never spans lines: an open quote at the line's end is a stray one.
            if c == 0x0A { break }
            out[n] = c
            n += 1
            i += 1
        }
        arena.used += n
        return (false, end, .empty)
    }

    /// Copies `count` bytes to the arena right after the quoted field just unescaped (the arena holds as many bytes
    /// as the buffer, and a field never takes more than its bytes in the buffer).
    private mutating func appendToArena(_ bytes: UnsafePointer<UInt8>, count: Int) {
        arena.next.update(from: bytes, count: count)
        arena.used += count
    }

    /// Whether the record just scanned from `start` (with `outcome`) is an empty line: one unquoted empty field.
    /// A record that is not whole (a quote left open) is never blank, whatever fields it got before the quote.
    /// - Complexity: O(1).
    @inline(__always)
    func isBlank(_ outcome: Outcome, start: UnsafePointer<UInt8>) -> Bool {
        guard case .record = outcome, fieldCount == 1 else { return false }
        let field = fields[0]
        return field.count == 0 && field.base == start
    }

    @inline(__always)
    private mutating func append(_ field: CheckInField, _ tooMany: inout Bool) {
        if fieldCount < maxFields {
            fields[fieldCount] = field
            fieldCount += 1
        } else {
            tooMany = true
        }
    }

    /// The field at `index`, or empty past the end.
    @inline(__always)
    func field(_ index: Int) -> CheckInField { index >= 0 && index < fieldCount ? fields[index] : .empty }
}
