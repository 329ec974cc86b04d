import CairnCore
import CairnIO
import Dispatch

/// Pre-rendered text for each place, event and verdict, so that writing a row is a few copies.
struct CheckInOutputText: Sendable {
    let format: CheckInOutputFormat
    /// Per place, in fixed slots of `placeStride` bytes (a 2-byte length, then the text, so a row costs one
    /// cache line here): `,radius,placeId` (CSV) or `,"radius_m":R,"place_id":"P"` (JSON). A text longer
    /// than `maxInlineText` has the length `Self.longText` and, after it, its offset (8 bytes) and length
    /// (4 bytes) in `longPlaces`, so one long id does not widen every slot.
    let places: ContiguousArray<UInt8>
    let placeStride: Int
    let longPlaces: ContiguousArray<UInt8>
    static let maxInlineText = 62
    static let longText = 0xFFFF
    /// Per event: `,eventId` or `,"event_id":"E"}`.
    let events: ContiguousArray<UInt8>
    let eventStarts: ContiguousArray<Int>
    /// Per verdict ordinal: `,valid,,` / `,invalid,reason,` or the JSON members up to the distance.
    let verdicts: [[UInt8]]
    /// For event ids not in the input (point-only matches) in CSV.
    let validator: CheckInValidator
    let noPlace: [UInt8]
    let noEvent: [UInt8]

    /// Renders every place's text (on two threads for many places), each event's for JSON, and the verdicts.
    /// - Complexity: O(p + e) for p places and e events (e only for JSON lines).
    init(validator: CheckInValidator, format: CheckInOutputFormat) {
        self.format = format
        // Rendered into one byte arena per half of the places, on two threads: this runs once per run before the
        // first row, so it is time both cores wait for.
        let placeCount = validator.placeCount
        let parts = placeCount >= 4096 ? 2 : 1
        let rendered = (0..<parts).map { _ in CheckInBuildBox<(bytes: [UInt8], ends: [Int])>(([], [])) }
        let render = { @Sendable (part: Int) in
            let range = part * placeCount / parts ..< (part + 1) * placeCount / parts
            var bytes: [UInt8] = [], ends: [Int] = []
            bytes.reserveCapacity(24 * range.count)
            ends.reserveCapacity(range.count)
            for p in range {
                Self.appendPlaceText(p, validator: validator, format: format, to: &bytes)
                ends.append(bytes.count)
            }
            rendered[part].value = (bytes, ends)
        }
        if parts > 1 { DispatchQueue.concurrentPerform(iterations: parts, execute: render) } else { render(0) }
        var longest = 0
        for part in rendered {
            var start = 0
            for end in part.value.ends {
                longest = max(longest, end - start)
                start = end
            }
        }
        longest = min(longest, Self.maxInlineText)
        let stride = max(16, (longest + 2 + 15) / 16 * 16)
        var places = ContiguousArray<UInt8>(repeating: 0, count: stride * placeCount)
        var longPlaces = ContiguousArray<UInt8>()
        places.withUnsafeMutableBufferPointer { places in
            func store(_ value: Int, bytes: Int, at offset: Int) {
                for i in 0..<bytes { places[offset + i] = UInt8(truncatingIfNeeded: value >> (8 * i)) }
            }
            var p = 0
            for part in rendered {
                part.value.bytes.withUnsafeBufferPointer { bytes in
                    var start = 0
                    for end in part.value.ends {
                        let text = UnsafeBufferPointer(rebasing: bytes[start ..< end])
                        start = end
                        defer { p += 1 }
                        if text.count > Self.maxInlineText {
                            store(Self.longText, bytes: 2, at: p * stride)
                            store(longPlaces.count, bytes: 8, at: p * stride + 2)
                            store(text.count, bytes: 4, at: p * stride + 10)
                            longPlaces.append(contentsOf: text)
                            continue
                        }
                        store(text.count, bytes: 2, at: p * stride)
                        if let from = text.baseAddress, let into = places.baseAddress, !text.isEmpty {
                            (into + p * stride + 2).update(from: from, count: text.count)
                        }
                    }
                }
            }
        }
        self.placeStride = stride
        self.longPlaces = longPlaces
        self.validator = validator
        var events = ContiguousArray<UInt8>(), eventStarts: ContiguousArray<Int> = [0]
        // CSV rows echo the event id from the input; the table is needed only for JSON output.
        for e in 0..<(format == .jsonl ? validator.eventCount : 0) {
            let id = validator.eventId(at: e)
            switch format {
            case .csv: events.append(contentsOf: ",\(TextEscaping.csvField(id))\n".utf8)
            case .jsonl: events.append(contentsOf: ",\"event_id\":\(TextEscaping.jsonString(id))}\n".utf8)
            }
            eventStarts.append(events.count)
        }
        // Read at random by every row: huge pages where the kernel allows.
        self.places = largeArray(copying: places)
        self.events = events
        self.eventStarts = eventStarts
        switch format {
        case .csv:
            verdicts = CheckInVerdictIndex.names.enumerated().map { ordinal, name in
                Array((ordinal == 0 ? ",valid,," : ",invalid,\(name),").utf8)
            }
            noPlace = Array(",,".utf8)
            noEvent = Array(",\n".utf8)
        case .jsonl:
            verdicts = CheckInVerdictIndex.names.enumerated().map { ordinal, name in
                Array((ordinal == 0 ? ",\"verdict\":\"valid\",\"reason\":null,\"distance_m\":"
                                    : ",\"verdict\":\"invalid\",\"reason\":\"\(name)\",\"distance_m\":").utf8)
            }
            noPlace = Array(",\"radius_m\":null,\"place_id\":null".utf8)
            noEvent = Array(",\"event_id\":null}\n".utf8)
        }
    }

    /// Appends a place's output text: `,radius,placeId` (CSV) or `,"radius_m":R,"place_id":"P"` (JSON). A CSV id
    /// that needs no quoting (the usual case) is copied from the validator's table as bytes, without a `String`.
    /// - Complexity: O(n) in the id's length.
    static func appendPlaceText(_ p: Int, validator: CheckInValidator, format: CheckInOutputFormat, to text: inout [UInt8]) {
        switch format {
        case .csv:
            text.append(0x2C)
            // A place with an area: no radius (the area decides; ARCHITECTURE.md, "Check-in rule").
            if validator.shape(ofPlace: p) == nil { TextEscaping.appendJSONNumber(validator.radiusMeters(ofPlace: p), to: &text) }
            text.append(0x2C)
            let copied = validator.placeKeys.withKey(at: p) { id -> Bool in
                guard !id.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) else { return false }
                text.append(contentsOf: id)
                return true
            }
            if !copied { TextEscaping.appendCSVField(validator.placeId(at: p), to: &text) }
        case .jsonl:
            text.append(contentsOf: ",\"radius_m\":".utf8)
            if validator.shape(ofPlace: p) == nil {
                TextEscaping.appendJSONNumber(validator.radiusMeters(ofPlace: p), to: &text)
            } else {
                text.append(contentsOf: "null".utf8)
            }
            text.append(contentsOf: ",\"place_id\":".utf8)
            TextEscaping.appendJSONString(validator.placeId(at: p), to: &text)
        }
    }

    /// Per verdict ordinal, the CSV verdict text in 32-byte slots (a length byte, then the bytes).
    private var verdictSlots: ContiguousArray<UInt8> {
        var slots = ContiguousArray<UInt8>(repeating: 0, count: 32 * verdicts.count)
        for (v, text) in verdicts.enumerated() where text.count < 32 {
            slots[32 * v] = UInt8(text.count)
            for (i, byte) in text.enumerated() { slots[32 * v + 1 + i] = byte }
        }
        return slots
    }

    /// An upper bound on the bytes `writeCSVRow` writes for a row with these fields (a verdict slot's 31 bytes
    /// and a distance's 20 fit in the 72; and room for most rows `appendRow` writes: quoted ids).
    @inline(__always)
    func csvRowBound(id: CheckInField, event: CheckInField) -> Int { 2 * (id.count + event.count) + placeStride + 72 }

    /// Writes one CSV row straight into `out` when it needs no escaping and no table lookup (the common case,
    /// a distance included);
    /// returns the bytes written, or nil to use `appendRow` instead. `out` has room for `csvRowBound`.
    /// - Complexity: O(row length).
    @inline(__always)
    func writeCSVRow(id: CheckInField, event eventField: CheckInField, result: CheckInResult,
                     verdictSlots: UnsafePointer<UInt8>, to out: UnsafeMutablePointer<UInt8>) -> Int? {
        guard format == .csv, id.count > 0, let idBase = id.base, isPlainCSV(id) else { return nil }
        if result.event >= 0 { guard eventField.count > 0, isPlainCSV(eventField) else { return nil } }
        var n = 0
        out.update(from: idBase, count: id.count)
        n += id.count
        let verdict = verdictSlots + 32 * CheckInVerdictIndex.ordinal(result.reason)
        let verdictCount = Int(verdict[0])
        (out + n).update(from: verdict + 1, count: verdictCount)
        n += verdictCount
        // An `outside_radius` distance: most of the hard load's rows carry one.
        if !result.distance.isNaN {
            guard let digits = CheckInNumberFormat.writeMillimetresUp(result.distance, to: out + n) else { return nil }
            n += digits
        }
        if result.place >= 0 {
            let start = Int(result.place) * placeStride
            let done = places.withUnsafeBufferPointer { places -> Bool in
                guard let base = places.baseAddress else { return false }
                let count = Int(base[start]) | Int(base[start + 1]) << 8
                guard count != Self.longText else { return false }
                (out + n).update(from: base + start + 2, count: count)
                n += count
                return true
            }
            guard done else { return nil }
        } else {
            out[n] = 0x2C
            out[n + 1] = 0x2C
            n += 2
        }
        out[n] = 0x2C
        n += 1
        if result.event >= 0, let eventBase = eventField.base {
            (out + n).update(from: eventBase, count: eventField.count)
            n += eventField.count
        }
        out[n] = 0x0A
        return n + 1
    }

    /// Reads the first byte of a place's text (to bring it into the cache ahead of writing rows); 0 for none.
    @inline(__always)
    func touch(place: Int32) -> UInt8 {
        place >= 0 ? places.withUnsafeBufferPointer { $0[Int(place) * placeStride] } : 0
    }

    /// The verdict slots, built once per run.
    func makeVerdictSlots() -> ContiguousArray<UInt8> { verdictSlots }

    /// Appends one output row.
    /// - Complexity: O(row length).
    @inline(__always)
    func appendRow(id: CheckInField, event eventField: CheckInField, result: CheckInResult, to out: inout [UInt8]) {
        switch format {
        case .csv: appendCSVField(id, to: &out)
        case .jsonl:
            out.append(contentsOf: "{\"checkin_id\":".utf8)
            appendJSONString(id, to: &out)
        }
        out.append(contentsOf: verdicts[CheckInVerdictIndex.ordinal(result.reason)])
        if !result.distance.isNaN {
            CheckInNumberFormat.appendMillimetresUp(result.distance, to: &out)
        } else if format == .jsonl {
            out.append(contentsOf: "null".utf8)
        }
        if result.place >= 0 {
            let text = placeText(Int(result.place))
            if text.long {
                longPlaces.withUnsafeBufferPointer { out.append(contentsOf: UnsafeBufferPointer(rebasing: $0[text.range])) }
            } else {
                places.withUnsafeBufferPointer { out.append(contentsOf: UnsafeBufferPointer(rebasing: $0[text.range])) }
            }
        } else {
            out.append(contentsOf: noPlace)
        }
        if result.event >= 0, format == .csv, eventField.count > 0, isPlainCSV(eventField) {
            // The event named in the input is the event found (same bytes): no table lookup needed.
            out.append(0x2C)
            out.append(contentsOf: eventField.bytes)
            out.append(0x0A)
        } else if result.event >= 0, format == .csv {
            out.append(contentsOf: ",\(TextEscaping.csvField(validator.eventId(at: Int(result.event))))\n".utf8)
        } else if result.event >= 0 {
            let e = Int(result.event)
            events.withUnsafeBufferPointer { out.append(contentsOf: UnsafeBufferPointer(rebasing: $0[eventStarts[e] ..< eventStarts[e + 1]])) }
        } else {
            out.append(contentsOf: noEvent)
        }
    }

    /// Where the place's output text is: a range of `places`, or of `longPlaces` when `long`.
    private func placeText(_ place: Int) -> (long: Bool, range: Range<Int>) {
        let start = place * placeStride
        func load(_ offset: Int, _ bytes: Int) -> Int {
            (0..<bytes).reduce(0) { $0 | Int(places[start + offset + $1]) << (8 * $1) }
        }
        let count = load(0, 2)
        guard count == Self.longText else { return (false, start + 2 ..< start + 2 + count) }
        let offset = load(2, 8)
        return (true, offset ..< offset + load(10, 4))
    }

    @inline(__always)
    private func isPlainCSV(_ field: CheckInField) -> Bool {
        for byte in field.bytes where byte == 0x2C || byte == 0x22 || byte == 0x0A || byte == 0x0D { return false }
        return true
    }

    @inline(__always)
    private func appendCSVField(_ field: CheckInField, to out: inout [UInt8]) {
        let bytes = field.bytes
        var plain = true
        for byte in bytes where byte == 0x2C || byte == 0x22 || byte == 0x0A || byte == 0x0D { plain = false; break }
        if plain {
            out.append(contentsOf: bytes)
        } else {
            out.append(contentsOf: TextEscaping.csvField(field.text).utf8)
        }
    }

    @inline(__always)
    private func appendJSONString(_ field: CheckInField, to out: inout [UInt8]) {
        let bytes = field.bytes
        var plain = true
        for byte in bytes where byte == 0x22 || byte == 0x5C || byte < 0x20 { plain = false; break }
        if plain {
            out.append(0x22)
            out.append(contentsOf: bytes)
            out.append(0x22)
        } else {
            out.append(contentsOf: TextEscaping.jsonString(field.text).utf8)
        }
    }
}
