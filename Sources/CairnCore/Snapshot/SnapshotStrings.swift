/// Collects a snapshot's distinct strings: `STRO` offsets and `STRB` UTF-8 bytes, in spools (moved to the spill
/// file as they grow, when there is one); only the lookup of strings that may repeat stays in memory.
struct StringTableBuilder {
    private var lookup = StringLookup()
    private(set) var heap: SectionSpool
    private(set) var offsets: SectionSpool
    private var count: UInt32 = 0

    init(spill: SnapshotSpill? = nil) {
        heap = SectionSpool(spill: spill)
        offsets = SectionSpool(spill: spill)
        offsets.append(UInt32(0))
    }

    /// The index of `text` in the table, adding it when new. `unique` skips the lookup for strings known to be
    /// distinct from every other (feature ids are unique per index, and rarely equal an attribute value).
    mutating func add(_ text: String, unique: Bool = false) -> UInt32 {
        if !unique, let index = lookup.index(of: text) { return index }
        let index = count
        count += 1
        heap.append(contentsOf: text.utf8)
        offsets.append(UInt32(heap.byteCount))
        if !unique { lookup.insert(text, index: index) }
        return index
    }

    /// The string bytes and offsets held in memory, not moved to the spill file (the lookup not counted).
    var bytesInMemory: Int { heap.bytesInMemory + offsets.bytesInMemory }

    /// Releases the lookup of strings seen: no string may be added after this (the last feature is encoded).
    mutating func releaseLookup() { lookup = StringLookup() }

    /// Moves the spools' bytes to the spill file when enough have gathered.
    mutating func spillIfFull() {
        heap.spillIfFull()
        offsets.spillIfFull()
    }

    /// The table's offsets (`STRO`) and bytes (`STRB`), leaving the builder empty: its lookup is released before
    /// the file is assembled.
    mutating func takeTable() -> (offsets: SectionSpool, heap: SectionSpool) {
        defer { self = StringTableBuilder() }
        return (offsets, heap)
    }
}

/// A snapshot's string table, decoded once: features share the decoded strings.
struct StringTable {
    private let strings: [String]

    /// Decodes `STRO` and `STRB`, checking that the offsets ascend within the bytes.
    init(_ file: SnapshotFile) throws(SnapshotError) {
        var offsetReader = try file.reader(SnapshotFormat.tag("STRO"))
        guard offsetReader.byteCount % 4 == 0, offsetReader.byteCount >= 4 else {
            throw offsetReader.invalid("length \(offsetReader.byteCount) is not a positive multiple of 4")
        }
        let offsets = try offsetReader.array(of: UInt32.self, count: offsetReader.byteCount / 4)
        let heap = try file.reader(SnapshotFormat.tag("STRB"))
        guard offsets[0] == 0, Int(offsets[offsets.count - 1]) == heap.byteCount else {
            throw offsetReader.invalid("offsets do not span the \(heap.byteCount) string bytes")
        }
        var strings: [String] = []
        strings.reserveCapacity(offsets.count - 1)
        var failed = false
        let bytes = heap.bytes
        let base = heap.range.lowerBound
        for i in 1..<offsets.count {
            let start = Int(offsets[i - 1]), end = Int(offsets[i])
            guard start <= end, end <= heap.byteCount else { failed = true; break }
            // Invalid UTF-8 becomes U+FFFD: never a crash (the checksum already vouches for the bytes).
            strings.append(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(base + start)..<(base + end)]), as: UTF8.self))
        }
        if failed { throw offsetReader.invalid("offsets descend or pass the end of the string bytes") }
        self.strings = strings
    }

    var count: Int { strings.count }

    subscript(index: Int) -> String { strings[index] }
}
