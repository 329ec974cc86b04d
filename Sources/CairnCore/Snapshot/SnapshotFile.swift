/// A snapshot file, mapped (or, for bytes handed over in memory, copied once) and checked: header, length, section
/// table, its checksum and the block checksums' (see `SnapshotFormat`), and the metadata.
///
/// Opening decodes nothing and reads only the header, the table, the block checksums and the metadata:
/// `FeatureIndex(mapping:)` reads the index's arrays in place from the file's bytes, verifying each block the first
/// time it is read (`verifier`), and `FeatureIndex(snapshot:)` verifies every block and decodes and checks every
/// value. Read `metadata` first to decide whether the snapshot is still the one wanted (a store compares its stamp)
/// before using it.
public struct SnapshotFile: Sendable {
    /// The file the bytes came from, or nil.
    public let path: String?
    /// The whole file, kept alive for indexes that read it in place.
    let storage: SnapshotStorage
    /// Each section's byte range, by tag.
    let sections: [UInt32: Range<Int>]
    /// The format version of the file.
    public let version: UInt32
    /// The writer's metadata pairs (for example a store's identity and generation).
    public let metadata: [String: String]
    /// Verifies the sections' blocks as they are read.
    let verifier: SnapshotBlockVerifier

    /// The file's size in bytes.
    /// - Complexity: O(1).
    public var byteCount: Int { storage.bytes.count }

    /// Maps the file at `path` read-only and checks it.
    /// - Throws: `SnapshotError`: `.io` when the file cannot be opened or mapped, otherwise as `init(bytes:path:)`.
    /// - Complexity: O(s + n / `SnapshotFormat.blockBytes`) for s sections and n bytes (no section is read).
    public init(contentsOf path: String) throws(SnapshotError) {
        try self.init(storage: SnapshotStorage(mapping: path), path: path)
    }

    /// Checks `bytes` (copied once): magic, byte order, version, length, section table, checksums and `META`.
    /// - Throws: `SnapshotError` saying what is wrong, with `path` in its message.
    /// - Complexity: O(n) in the number of bytes (the copy).
    public init(bytes: [UInt8], path: String? = nil) throws(SnapshotError) {
        try self.init(storage: SnapshotStorage(copying: bytes), path: path)
    }

    /// Checks `storage`'s bytes, as `init(bytes:path:)` does.
    init(storage: SnapshotStorage, path: String?) throws(SnapshotError) {
        func fail(_ reason: SnapshotError.Reason) -> SnapshotError { SnapshotError(path: path, reason: reason) }
        let bytes = storage.bytes
        let count = bytes.count
        let magic = SnapshotFormat.magic
        guard count >= magic.count else {
            throw fail(bytes.elementsEqual(magic.prefix(count)) && count > 0 ? .truncated(atByte: count, ofBytes: nil) : .notASnapshot)
        }
        guard bytes.prefix(magic.count).elementsEqual(magic) else { throw fail(.notASnapshot) }
        guard count >= SnapshotFormat.headerBytes else { throw fail(.truncated(atByte: count, ofBytes: nil)) }
        let header = (mark: bytes.loadUnaligned(fromByteOffset: 8, as: UInt32.self),
                      version: bytes.loadUnaligned(fromByteOffset: 12, as: UInt32.self),
                      length: bytes.loadUnaligned(fromByteOffset: 16, as: UInt64.self),
                      checksum: bytes.loadUnaligned(fromByteOffset: SnapshotFormat.checksumOffset, as: UInt64.self),
                      sectionCount: bytes.loadUnaligned(fromByteOffset: 32, as: UInt32.self))
        guard header.mark == SnapshotFormat.byteOrderMark else {
            throw fail(header.mark == SnapshotFormat.byteOrderMark.byteSwapped ? .byteOrderMismatch : .notASnapshot)
        }
        guard header.version == SnapshotFormat.version else {
            throw fail(.unsupportedVersion(found: header.version, supported: SnapshotFormat.version))
        }
        guard header.length <= UInt64(Int.max), Int(header.length) >= SnapshotFormat.headerBytes else {
            throw fail(.invalidContent(section: "header", detail: "file length \(header.length) is smaller than the header"))
        }
        let length = Int(header.length)
        guard count >= length else { throw fail(.truncated(atByte: count, ofBytes: length)) }
        guard count == length else { throw fail(.trailingBytes(fileBytes: count, expectedBytes: length)) }

        // The section table: every section inside the checksummed region, the block checksums after it.
        let tableEnd = UInt64(SnapshotFormat.headerBytes) + UInt64(header.sectionCount) * UInt64(SnapshotFormat.sectionEntryBytes)
        guard tableEnd <= UInt64(count) else {
            throw fail(.sectionOutOfBounds(section: "section table", offset: UInt64(SnapshotFormat.headerBytes),
                                           byteCount: tableEnd - UInt64(SnapshotFormat.headerBytes), fileBytes: count))
        }
        let entries = SnapshotFormat.sectionEntries(bytes, count: Int(header.sectionCount))
        // The checksum first, so that damage anywhere in the table reads as damage, not as a malformed table.
        let foundSums = SnapshotFormat.blockChecksums(in: entries, fileBytes: count)
        let sums = foundSums ?? count..<count
        let computed = SnapshotChecksum.tableChecksum(bytes, tableEnd: Int(tableEnd), sums: sums)
        guard computed == header.checksum else { throw fail(.checksumMismatch(stored: header.checksum, computed: computed)) }

        let regionStart = UInt64(SnapshotFormat.sectionsStart(sectionCount: Int(header.sectionCount)))
        var sections: [UInt32: Range<Int>] = [:]
        for entry in entries {
            let name = SnapshotFormat.name(ofTag: entry.tag)
            guard entry.offset >= regionStart, entry.fits(in: count) else {
                throw fail(.sectionOutOfBounds(section: name, offset: entry.offset, byteCount: entry.byteCount, fileBytes: count))
            }
            guard sections[entry.tag] == nil else { throw fail(.invalidContent(section: name, detail: "the section appears twice")) }
            sections[entry.tag] = Int(entry.offset)..<Int(entry.offset + entry.byteCount)
        }
        guard foundSums != nil else { throw fail(.missingSection("BSUM")) }
        let region = Int(regionStart)..<sums.lowerBound
        let blocks = (region.count + SnapshotFormat.blockBytes - 1) / SnapshotFormat.blockBytes
        guard sums.upperBound == count, sums.count == 8 * blocks else {
            throw fail(.invalidContent(section: "BSUM", detail: "holds \(sums.count) bytes ending at \(sums.upperBound), not \(blocks) checksums ending the file"))
        }
        for (tag, range) in sections where tag != SnapshotFormat.tag("BSUM") && range.upperBound > region.upperBound {
            throw fail(.invalidContent(section: SnapshotFormat.name(ofTag: tag), detail: "runs into the block checksums"))
        }
        self.path = path
        self.storage = storage
        self.sections = sections
        self.version = header.version
        self.verifier = SnapshotBlockVerifier(storage: storage, path: path, region: region, sums: sums)
        self.metadata = try SnapshotFile.decodeMetadata(SnapshotFile.reader(SnapshotFormat.tag("META"), storage: storage,
                                                                            sections: sections, verifier: verifier, path: path))
    }

    /// Verifies every block now (a whole decode reads every byte anyway).
    /// - Throws: `.checksumMismatch` for the first damaged block.
    /// - Complexity: O(n).
    func verifyAll() throws(SnapshotError) {
        if let sums = sections[SnapshotFormat.tag("BSUM")] { try verifier.verifyNow(0..<sums.lowerBound) }
    }

    private static func decodeMetadata(_ section: SectionReader) throws(SnapshotError) -> [String: String] {
        var reader = section
        var metadata: [String: String] = [:]
        let pairs = try reader.uint32()
        for _ in 0..<pairs {
            let key = try reader.string(), value = try reader.string()
            guard metadata.updateValue(value, forKey: key) == nil else { throw reader.invalid("key '\(key)' appears twice") }
        }
        try reader.expectEnd()
        return metadata
    }

    private static func reader(_ tag: UInt32, storage: SnapshotStorage, sections: [UInt32: Range<Int>],
                               verifier: SnapshotBlockVerifier, path: String?) throws(SnapshotError) -> SectionReader {
        guard let range = sections[tag] else {
            throw SnapshotError(path: path, reason: .missingSection(SnapshotFormat.name(ofTag: tag)))
        }
        try verifier.verifyNow(range)
        return SectionReader(storage: storage, range: range, name: SnapshotFormat.name(ofTag: tag), path: path)
    }

    /// A bounds-checked reader over one section, whose blocks are verified now.
    /// - Throws: `.missingSection` when the file has no such section, `.checksumMismatch` when it is damaged.
    /// - Complexity: O(bytes of the section).
    func reader(_ tag: UInt32) throws(SnapshotError) -> SectionReader {
        try SnapshotFile.reader(tag, storage: storage, sections: sections, verifier: verifier, path: path)
    }

    /// A whole section read in place as `count` values of `T` (every value when `count` is nil; the section must
    /// then be a whole number of them), kept alive by the file's storage, and its byte range in the file.
    /// Its blocks are verified now, or when `verifyingNow` is false, by whoever reads it (`verifier.verify`).
    /// - Throws: `.missingSection`, `.checksumMismatch`, or `.invalidContent` when the section's length does not fit.
    /// - Complexity: O(bytes of the section) verified now, otherwise O(1).
    func view<T: BitwiseCopyable>(_ tag: UInt32, of type: T.Type, count: Int? = nil,
                                  verifyingNow: Bool = true) throws(SnapshotError) -> IndexBuffer<T> {
        guard let range = sections[tag] else { throw SnapshotError(path: path, reason: .missingSection(SnapshotFormat.name(ofTag: tag))) }
        if verifyingNow { try verifier.verifyNow(range) }
        let reader = SectionReader(storage: storage, range: range, name: SnapshotFormat.name(ofTag: tag), path: path)
        let stride = MemoryLayout<T>.stride
        let expected = count ?? reader.byteCount / stride
        guard reader.byteCount == expected * stride, expected >= 0 else {
            throw reader.invalid("holds \(reader.byteCount) bytes, not \(count.map { "\($0)" } ?? "a whole number of") values of \(stride) bytes")
        }
        // Sections start at multiples of 8 and the storage is page- or 8-aligned.
        let raw = UnsafeRawBufferPointer(rebasing: storage.bytes[reader.range])
        guard expected > 0, let base = raw.baseAddress, Int(bitPattern: base) % MemoryLayout<T>.alignment == 0 else {
            guard expected == 0 else { throw reader.invalid("is not aligned for \(stride)-byte values") }
            return IndexBuffer([])
        }
        let typed = UnsafeBufferPointer(start: base.assumingMemoryBound(to: T.self), count: expected)
        return IndexBuffer(viewing: typed, owner: storage)
    }
}

/// Reads numbers and arrays from one section, refusing every read past its end.
struct SectionReader {
    /// Keeps the bytes alive while the reader reads them.
    let storage: SnapshotStorage
    let range: Range<Int>
    let name: String
    let path: String?
    private(set) var position: Int

    /// The whole file.
    var bytes: UnsafeRawBufferPointer { storage.bytes }

    init(storage: SnapshotStorage, range: Range<Int>, name: String, path: String?) {
        self.storage = storage
        self.range = range
        self.name = name
        self.path = path
        position = range.lowerBound
    }

    /// The section's length in bytes.
    var byteCount: Int { range.count }

    /// An `invalidContent` error for this section.
    func invalid(_ detail: String) -> SnapshotError {
        SnapshotError(path: path, reason: .invalidContent(section: name, detail: detail))
    }

    private mutating func take(_ size: Int) throws(SnapshotError) -> Int {
        guard size >= 0, range.upperBound - position >= size else {
            throw invalid("ends after \(position - range.lowerBound) of the \(size) more bytes it needs at that point")
        }
        defer { position += size }
        return position
    }

    mutating func uint32() throws(SnapshotError) -> UInt32 {
        let at = try take(4)
        return bytes.loadUnaligned(fromByteOffset: at, as: UInt32.self)
    }

    mutating func double() throws(SnapshotError) -> Double {
        let at = try take(8)
        return bytes.loadUnaligned(fromByteOffset: at, as: Double.self)
    }

    /// A UInt32 length, then that many UTF-8 bytes (invalid sequences become U+FFFD).
    mutating func string() throws(SnapshotError) -> String {
        let length = Int(try uint32())
        let at = try take(length)
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[at..<(at + length)]), as: UTF8.self)
    }

    /// The rest of the section as `count` values of `T`; the section must end exactly there.
    mutating func array<T: BitwiseCopyable>(of type: T.Type, count: Int) throws(SnapshotError) -> ContiguousArray<T> {
        let stride = MemoryLayout<T>.stride
        guard count >= 0, count <= (range.upperBound - position) / stride else {
            throw invalid("holds \(range.upperBound - position) bytes, too few for \(count) values of \(stride) bytes")
        }
        let at = try take(count * stride)
        let raw = bytes
        return ContiguousArray<T>(unsafeUninitializedCapacity: count) { buffer, initialized in
            UnsafeMutableRawBufferPointer(buffer).copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[at..<(at + count * stride)]))
            initialized = count
        }
    }

    /// Refuses bytes left over after the expected content.
    func expectEnd() throws(SnapshotError) {
        guard position == range.upperBound else { throw invalid("\(range.upperBound - position) unexpected bytes at its end") }
    }
}
