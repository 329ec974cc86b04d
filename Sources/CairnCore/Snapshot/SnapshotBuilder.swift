/// Assembles a snapshot file: sections appended one by one, then the header, the section table and the checksums.
struct SnapshotBuilder {
    private var sections: [(tag: UInt32, bytes: [UInt8])] = []

    /// Appends a section.
    mutating func add(_ tag: UInt32, _ bytes: [UInt8]) {
        sections.append((tag, bytes))
    }

    /// The whole file: header, section table, the sections, then their block checksums (`BSUM`). Each section's
    /// bytes are released once copied, so the peak is about one file's size beyond the sections.
    /// - Complexity: O(total bytes).
    mutating func finish() -> [UInt8] {
        let sectionCount = sections.count + 1
        let start = SnapshotFormat.sectionsStart(sectionCount: sectionCount)
        var offsets: [Int] = []
        var end = start
        for section in sections {
            offsets.append(end)
            end = SnapshotFormat.aligned(end + section.bytes.count)
        }
        let blockCount = (end - start + SnapshotFormat.blockBytes - 1) / SnapshotFormat.blockBytes
        let sumsOffset = end, sumsBytes = 8 * blockCount
        var file = ByteSink(capacity: end + sumsBytes)
        file.append(SnapshotFormat.magic)
        file.append(SnapshotFormat.byteOrderMark)
        file.append(SnapshotFormat.version)
        file.append(UInt64(end + sumsBytes))
        file.append(UInt64(0)) // table checksum, patched below
        file.append(UInt32(sectionCount))
        file.append(UInt32(0))
        let table = zip(sections, offsets).map { (tag: $0.tag, offset: $1, byteCount: $0.bytes.count) }
            + [(tag: SnapshotFormat.tag("BSUM"), offset: sumsOffset, byteCount: sumsBytes)]
        for entry in table {
            file.append(entry.tag)
            file.append(UInt32(0))
            file.append(UInt64(entry.offset))
            file.append(UInt64(entry.byteCount))
        }
        for (position, offset) in offsets.enumerated() {
            file.pad(to: offset)
            file.append(sections[position].bytes)
            sections[position].bytes = []
        }
        file.pad(to: end + sumsBytes)
        var bytes = file.takeBytes()
        SnapshotBuilder.seal(&bytes)
        return bytes
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

    /// The raw bytes of a buffer's elements.
    init<T: BitwiseCopyable>(contentsOf buffer: IndexBuffer<T>) {
        buffer.withUnsafeBufferPointer { bytes = Array(UnsafeRawBufferPointer($0)) }
    }

    mutating func append(_ value: some FixedWidthInteger) {
        withUnsafeBytes(of: value) { bytes.append(contentsOf: $0) }
    }

    mutating func append(_ value: Double) { append(value.bitPattern) }

    mutating func append(_ raw: [UInt8]) { bytes.append(contentsOf: raw) }

    /// Appends an array's elements as raw bytes (plain numbers only).
    mutating func append<T: BitwiseCopyable>(contentsOf array: ContiguousArray<T>) {
        array.withUnsafeBytes { bytes.append(contentsOf: $0) }
    }

    /// Appends a buffer's elements as raw bytes.
    mutating func append<T: BitwiseCopyable>(contentsOf buffer: IndexBuffer<T>) {
        buffer.withUnsafeBufferPointer { bytes.append(contentsOf: UnsafeRawBufferPointer($0)) }
    }

    /// A UInt32 length, then the UTF-8 bytes.
    mutating func appendString(_ text: String) {
        append(UInt32(text.utf8.count))
        bytes.append(contentsOf: text.utf8)
    }

    /// The bytes, leaving the sink empty (no copy when the caller then changes them).
    mutating func takeBytes() -> [UInt8] {
        let taken = bytes
        bytes = []
        return taken
    }

    /// Zero bytes up to `offset`.
    mutating func pad(to offset: Int) {
        if bytes.count < offset { bytes.append(contentsOf: repeatElement(0, count: offset - bytes.count)) }
    }
}
