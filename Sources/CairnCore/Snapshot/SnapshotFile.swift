#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A snapshot file read into memory with one read and checked: header, length, checksum and section table.
///
/// Opening does not decode the index; `FeatureIndex(snapshot:)` does. Read `metadata` first to decide whether the
/// snapshot is still the one wanted (a cache compares its store generation) without paying for the decoding.
public struct SnapshotFile: Sendable {
    /// The file the bytes came from, or nil.
    public let path: String?
    /// The whole file.
    let bytes: [UInt8]
    /// Each section's byte range, by tag.
    let sections: [UInt32: Range<Int>]
    /// The format version of the file.
    public let version: UInt32
    /// The writer's metadata pairs (for example a store's identity and generation).
    public let metadata: [String: String]

    /// The file's size in bytes.
    /// - Complexity: O(1).
    public var byteCount: Int { bytes.count }

    /// Reads the file at `path` with one read and checks it.
    /// - Throws: `SnapshotError`: `.io` when the file cannot be read, otherwise as `init(bytes:path:)`.
    /// - Complexity: O(n) in the file's size.
    public init(contentsOf path: String) throws(SnapshotError) {
        try self.init(bytes: SnapshotFile.readWholeFile(path), path: path)
    }

    /// Checks `bytes`: magic, byte order, version, length, checksum, section table and `META`.
    /// - Throws: `SnapshotError` saying what is wrong, with `path` in its message.
    /// - Complexity: O(n) in the number of bytes (the checksum).
    public init(bytes: [UInt8], path: String? = nil) throws(SnapshotError) {
        func fail(_ reason: SnapshotError.Reason) -> SnapshotError { SnapshotError(path: path, reason: reason) }
        let count = bytes.count
        let magic = SnapshotFormat.magic
        guard count >= magic.count else {
            throw fail(bytes.elementsEqual(magic.prefix(count)) && count > 0 ? .truncated(atByte: count, ofBytes: nil) : .notASnapshot)
        }
        guard bytes.prefix(magic.count).elementsEqual(magic) else { throw fail(.notASnapshot) }
        guard count >= SnapshotFormat.headerBytes else { throw fail(.truncated(atByte: count, ofBytes: nil)) }
        let header = bytes.withUnsafeBytes { raw in
            (mark: raw.loadUnaligned(fromByteOffset: 8, as: UInt32.self),
             version: raw.loadUnaligned(fromByteOffset: 12, as: UInt32.self),
             length: raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self),
             checksum: raw.loadUnaligned(fromByteOffset: SnapshotFormat.checksumOffset, as: UInt64.self),
             sectionCount: raw.loadUnaligned(fromByteOffset: 32, as: UInt32.self))
        }
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
        let computed = bytes.withUnsafeBytes { raw in
            SnapshotChecksum.xxh64(UnsafeRawBufferPointer(rebasing: raw[SnapshotFormat.checksumStart...]))
        }
        guard computed == header.checksum else { throw fail(.checksumMismatch(stored: header.checksum, computed: computed)) }

        // The section table.
        let tableEnd = UInt64(SnapshotFormat.headerBytes) + UInt64(header.sectionCount) * UInt64(SnapshotFormat.sectionEntryBytes)
        guard tableEnd <= UInt64(count) else {
            throw fail(.sectionOutOfBounds(section: "section table", offset: UInt64(SnapshotFormat.headerBytes),
                                           byteCount: tableEnd - UInt64(SnapshotFormat.headerBytes), fileBytes: count))
        }
        var sections: [UInt32: Range<Int>] = [:]
        for entry in 0..<Int(header.sectionCount) {
            let at = SnapshotFormat.headerBytes + entry * SnapshotFormat.sectionEntryBytes
            let (tag, offset, size) = bytes.withUnsafeBytes { raw in
                (raw.loadUnaligned(fromByteOffset: at, as: UInt32.self),
                 raw.loadUnaligned(fromByteOffset: at + 8, as: UInt64.self),
                 raw.loadUnaligned(fromByteOffset: at + 16, as: UInt64.self))
            }
            let name = SnapshotFormat.name(ofTag: tag)
            guard offset >= tableEnd, offset <= UInt64(count), size <= UInt64(count) - offset else {
                throw fail(.sectionOutOfBounds(section: name, offset: offset, byteCount: size, fileBytes: count))
            }
            guard sections[tag] == nil else { throw fail(.invalidContent(section: name, detail: "the section appears twice")) }
            sections[tag] = Int(offset)..<Int(offset + size)
        }
        self.path = path
        self.bytes = bytes
        self.sections = sections
        self.version = header.version
        self.metadata = try SnapshotFile.decodeMetadata(SnapshotFile.reader(SnapshotFormat.tag("META"), bytes: bytes, sections: sections, path: path))
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

    private static func reader(_ tag: UInt32, bytes: [UInt8], sections: [UInt32: Range<Int>], path: String?) throws(SnapshotError) -> SectionReader {
        guard let range = sections[tag] else {
            throw SnapshotError(path: path, reason: .missingSection(SnapshotFormat.name(ofTag: tag)))
        }
        return SectionReader(bytes: bytes, range: range, name: SnapshotFormat.name(ofTag: tag), path: path)
    }

    /// A bounds-checked reader over one section.
    /// - Throws: `.missingSection` when the file has no such section.
    func reader(_ tag: UInt32) throws(SnapshotError) -> SectionReader {
        try SnapshotFile.reader(tag, bytes: bytes, sections: sections, path: path)
    }

    /// Reads a whole file with one `read` loop into one buffer.
    static func readWholeFile(_ path: String) throws(SnapshotError) -> [UInt8] {
        func failure(_ operation: String) -> SnapshotError {
            SnapshotError(path: path, reason: .io(operation: operation, message: String(cString: strerror(errno))))
        }
        // open(2) returns -1 and sets errno on failure.
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure("open") }
        defer { close(fd) }
        // fstat(2) returns 0 on success, -1 with errno.
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw failure("read") }
        let size = Int(status.st_size)
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            initialized = 0
            guard let base = buffer.baseAddress else { return }
            var done = 0
            while done < size {
                // read(2) returns the bytes read, 0 at end of file, -1 with errno (EINTR: try again).
                let n = read(fd, base + done, size - done)
                if n > 0 { done += n } else if n == 0 { break } else if errno != EINTR { failed = true; break }
            }
            initialized = done
        }
        if failed { throw failure("read") }
        return bytes
    }
}

/// Reads numbers and arrays from one section, refusing every read past its end.
struct SectionReader {
    let bytes: [UInt8]
    let range: Range<Int>
    let name: String
    let path: String?
    private(set) var position: Int

    init(bytes: [UInt8], range: Range<Int>, name: String, path: String?) {
        self.bytes = bytes
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
        return bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at, as: UInt32.self) }
    }

    mutating func double() throws(SnapshotError) -> Double {
        let at = try take(8)
        return bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at, as: Double.self) }
    }

    /// A UInt32 length, then that many UTF-8 bytes (invalid sequences become U+FFFD).
    mutating func string() throws(SnapshotError) -> String {
        let length = Int(try uint32())
        let at = try take(length)
        return bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[at..<(at + length)]), as: UTF8.self) }
    }

    /// The rest of the section as `count` values of `T`; the section must end exactly there.
    mutating func array<T: BitwiseCopyable>(of type: T.Type, count: Int) throws(SnapshotError) -> ContiguousArray<T> {
        let stride = MemoryLayout<T>.stride
        guard count >= 0, count <= (range.upperBound - position) / stride else {
            throw invalid("holds \(range.upperBound - position) bytes, too few for \(count) values of \(stride) bytes")
        }
        let at = try take(count * stride)
        let result = bytes.withUnsafeBytes { raw in
            ContiguousArray<T>(unsafeUninitializedCapacity: count) { buffer, initialized in
                UnsafeMutableRawBufferPointer(buffer).copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[at..<(at + count * stride)]))
                initialized = count
            }
        }
        return result
    }

    /// Refuses bytes left over after the expected content.
    func expectEnd() throws(SnapshotError) {
        guard position == range.upperBound else { throw invalid("\(range.upperBound - position) unexpected bytes at its end") }
    }
}
