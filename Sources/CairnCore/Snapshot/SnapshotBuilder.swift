/// Assembles a snapshot file: sections appended one by one, then the header, section table and checksum.
struct SnapshotBuilder {
    private var sections: [(tag: UInt32, bytes: [UInt8])] = []

    /// Appends a section.
    mutating func add(_ tag: UInt32, _ bytes: [UInt8]) {
        sections.append((tag, bytes))
    }

    /// The whole file.
    /// - Complexity: O(total bytes).
    func finish() -> [UInt8] {
        let tableEnd = SnapshotFormat.headerBytes + sections.count * SnapshotFormat.sectionEntryBytes
        var offsets: [Int] = []
        var end = aligned(tableEnd)
        for section in sections {
            offsets.append(end)
            end = aligned(end + section.bytes.count)
        }
        var file = ByteSink(capacity: end)
        file.append(SnapshotFormat.magic)
        file.append(SnapshotFormat.byteOrderMark)
        file.append(SnapshotFormat.version)
        file.append(UInt64(end))
        file.append(UInt64(0)) // checksum, patched below
        file.append(UInt32(sections.count))
        file.append(UInt32(0))
        for (section, offset) in zip(sections, offsets) {
            file.append(section.tag)
            file.append(UInt32(0))
            file.append(UInt64(offset))
            file.append(UInt64(section.bytes.count))
        }
        for (section, offset) in zip(sections, offsets) {
            file.pad(to: offset)
            file.append(section.bytes)
        }
        file.pad(to: end)
        var bytes = file.bytes
        let checksum = bytes.withUnsafeBytes { raw in
            SnapshotChecksum.xxh64(UnsafeRawBufferPointer(rebasing: raw[SnapshotFormat.checksumStart...]))
        }
        bytes.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: checksum, toByteOffset: SnapshotFormat.checksumOffset, as: UInt64.self)
        }
        return bytes
    }

    private func aligned(_ offset: Int) -> Int { (offset + 7) & ~7 }
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

    /// Zero bytes up to `offset`.
    mutating func pad(to offset: Int) {
        if bytes.count < offset { bytes.append(contentsOf: repeatElement(0, count: offset - bytes.count)) }
    }
}
