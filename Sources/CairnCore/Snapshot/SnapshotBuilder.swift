import SystemPackage

/// Assembles a snapshot file: sections added one by one, then put out in order (`SnapshotEmitter`) after the header
/// and the section table, with their block checksums (`BSUM`) last and the table checksum written into the header.
/// The same sections give the same bytes whether they go into memory (`finish`) or to a file (`write(to:)`).
struct SnapshotBuilder {
    /// A section's bytes: in memory, in a spool (perhaps partly in a spill file), or an index's buffer read in place.
    enum Content {
        case bytes([UInt8])
        case spool(SectionSpool, patch: ((UnsafeMutableRawBufferPointer, Int) -> Void)?)
        case doubles(IndexBuffer<Double>)
        case words(IndexBuffer<UInt32>)

        var byteCount: Int {
            switch self {
            case .bytes(let bytes): bytes.count
            case .spool(let spool, _): spool.byteCount
            case .doubles(let buffer): 8 * buffer.count
            case .words(let buffer): 4 * buffer.count
            }
        }
    }

    private var sections: [(tag: UInt32, content: Content)] = []

    /// Appends a section.
    mutating func add(_ tag: UInt32, _ bytes: [UInt8]) {
        sections.append((tag, .bytes(bytes)))
    }

    /// Appends a section.
    mutating func add(_ tag: UInt32, _ content: Content) {
        sections.append((tag, content))
    }

    /// The sections' offsets, where the block checksums start, and the file's length.
    private var layout: (offsets: [Int], sumsOffset: Int, fileBytes: Int) {
        let start = SnapshotFormat.sectionsStart(sectionCount: sections.count + 1)
        var offsets: [Int] = []
        var end = start
        for section in sections {
            offsets.append(end)
            end = SnapshotFormat.aligned(end + section.content.byteCount)
        }
        let blockCount = (end - start + SnapshotFormat.blockBytes - 1) / SnapshotFormat.blockBytes
        return (offsets, end, end + 8 * blockCount)
    }

    /// The file's length in bytes.
    /// - Complexity: O(sections).
    var fileBytes: Int { layout.fileBytes }

    /// The whole file in memory. Each section is released once put out (`releasing`), so the peak is about one
    /// file's size beyond the sections.
    /// - Throws: `SnapshotError` (`.io`) only when a spool's spill file cannot be read back.
    /// - Complexity: O(total bytes).
    mutating func finish(releasing: Bool = true) throws(SnapshotError) -> [UInt8] {
        var emitter = SnapshotEmitter(regionStart: SnapshotFormat.sectionsStart(sectionCount: sections.count + 1),
                                      descriptor: nil, capacity: fileBytes, path: nil)
        try emit(into: &emitter, path: nil, releasing: releasing)
        return emitter.takeBytes()
    }

    /// Writes the file through `descriptor` (from its current position, which must be the file's start), in
    /// pieces: what the sections hold is never copied whole.
    /// - Throws: `SnapshotError` (`.io`) when writing, or reading back a spill file, fails; `path` names the file.
    /// - Returns: the file's length.
    /// - Complexity: O(total bytes).
    func write(to descriptor: FileDescriptor, path: String) throws(SnapshotError) -> Int {
        var copy = self
        var emitter = SnapshotEmitter(regionStart: SnapshotFormat.sectionsStart(sectionCount: sections.count + 1),
                                      descriptor: descriptor, capacity: 0, path: path)
        try copy.emit(into: &emitter, path: path, releasing: false)
        if let failure = emitter.failure { throw failure }
        return emitter.offset
    }

    /// Puts out the header, the table, the sections, `BSUM`, then the table checksum into the header.
    private mutating func emit(into emitter: inout SnapshotEmitter, path: String?, releasing: Bool) throws(SnapshotError) {
        let (offsets, sumsOffset, fileBytes) = layout
        var head = ByteSink(capacity: SnapshotFormat.sectionsStart(sectionCount: sections.count + 1))
        head.append(SnapshotFormat.magic)
        head.append(SnapshotFormat.byteOrderMark)
        head.append(SnapshotFormat.version)
        head.append(UInt64(fileBytes))
        head.append(UInt64(0)) // table checksum, written last
        head.append(UInt32(sections.count + 1))
        head.append(UInt32(0))
        let table = zip(sections, offsets).map { (tag: $0.tag, offset: $1, byteCount: $0.content.byteCount) }
            + [(tag: SnapshotFormat.tag("BSUM"), offset: sumsOffset, byteCount: fileBytes - sumsOffset)]
        for entry in table {
            head.append(entry.tag)
            head.append(UInt32(0))
            head.append(UInt64(entry.offset))
            head.append(UInt64(entry.byteCount))
        }
        let tableEnd = head.bytes.count
        head.bytes.withUnsafeBytes { emitter.append($0) }
        for (position, offset) in offsets.enumerated() {
            emitter.pad(to: offset)
            switch sections[position].content {
            case .bytes(let bytes): bytes.withUnsafeBytes { emitter.append($0) }
            case .spool(let spool, let patch):
                try spool.forEachPiece(path: path) { piece, sectionOffset in
                    emitter.append(piece, patch: patch.map { patch in { patch($0, sectionOffset) } })
                }
            case .doubles(let buffer): buffer.withUnsafeBufferPointer { emitter.append(UnsafeRawBufferPointer($0)) }
            case .words(let buffer): buffer.withUnsafeBufferPointer { emitter.append(UnsafeRawBufferPointer($0)) }
            }
            if releasing { sections[position].content = .bytes([]) }
        }
        emitter.pad(to: sumsOffset)
        emitter.endRegion()
        let sums = emitter.sums
        sums.withUnsafeBytes { emitter.append($0) }
        let checksum = head.bytes.withUnsafeBytes { table in
            sums.withUnsafeBytes { sums in
                SnapshotChecksum.xxh64(UnsafeRawBufferPointer(rebasing: table[SnapshotFormat.checksumStart..<tableEnd]),
                                       seed: SnapshotChecksum.xxh64(sums))
            }
        }
        emitter.flush()
        emitter.overwrite(checksum, at: SnapshotFormat.checksumOffset)
    }

    /// Writes the checksums of a laid-out snapshot: each block's into `BSUM`, then the table checksum into the
    /// header (see `SnapshotFormat`). Tests reseal crafted files with it. Bytes whose table does not fit the file,
    /// or that lack `BSUM`, get a table checksum over an empty `BSUM` (`SnapshotFile` refuses them anyway).
    /// - Complexity: O(n).
    static func seal(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { raw in
            guard raw.count >= SnapshotFormat.headerBytes else { return }
            let sectionCount = Int(raw.loadUnaligned(fromByteOffset: 32, as: UInt32.self))
            let tableEnd = SnapshotFormat.headerBytes + sectionCount * SnapshotFormat.sectionEntryBytes
            guard tableEnd <= raw.count else { return }
            let entries = SnapshotFormat.sectionEntries(UnsafeRawBufferPointer(raw), count: sectionCount)
            let sums = SnapshotFormat.blockChecksums(in: entries, fileBytes: raw.count) ?? raw.count..<raw.count
            let start = SnapshotFormat.sectionsStart(sectionCount: sectionCount)
            var sum = sums.lowerBound
            for block in stride(from: start, to: sums.lowerBound, by: SnapshotFormat.blockBytes) where sum + 8 <= sums.upperBound {
                let bytes = UnsafeRawBufferPointer(rebasing: raw[block..<min(block + SnapshotFormat.blockBytes, sums.lowerBound)])
                raw.storeBytes(of: SnapshotChecksum.xxh64(bytes), toByteOffset: sum, as: UInt64.self)
                sum += 8
            }
            let checksum = SnapshotChecksum.tableChecksum(UnsafeRawBufferPointer(raw), tableEnd: tableEnd, sums: sums)
            raw.storeBytes(of: checksum, toByteOffset: SnapshotFormat.checksumOffset, as: UInt64.self)
        }
    }
}

/// A growing byte buffer for writing numbers in native byte order.
struct ByteSink {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    mutating func append(_ value: some FixedWidthInteger) {
        withUnsafeBytes(of: value) { bytes.append(contentsOf: $0) }
    }

    mutating func append(_ raw: [UInt8]) { bytes.append(contentsOf: raw) }

    /// A UInt32 length, then the UTF-8 bytes.
    mutating func appendString(_ text: String) {
        append(UInt32(text.utf8.count))
        bytes.append(contentsOf: text.utf8)
    }
}
