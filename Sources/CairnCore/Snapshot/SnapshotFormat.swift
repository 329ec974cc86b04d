/// The layout of a Cairn snapshot file: one flat binary file holding a whole `FeatureIndex`, mapped into memory and
/// read in place (`FeatureIndex(mapping:)`): every array an index queries is a section, at a multiple of 8.
///
/// ```
/// offset  size  field
///      0     8  magic "CAIRNSNP"
///      8     4  byte-order mark 0x0A0B0C0D, written in the writer's byte order (UInt32)
///     12     4  format version (UInt32), `SnapshotFormat.version`
///     16     8  file length in bytes, header included (UInt64)
///     24     8  table checksum: XXH64 of bytes [32, table end), seeded with the XXH64 (seed 0) of the `BSUM` section
///                (UInt64; see `SnapshotChecksum`)
///     32     4  section count s (UInt32)
///     36     4  zero (UInt32)
///     40  24 s  section table: per section a tag (4 ASCII bytes), zero (UInt32), offset (UInt64), byte count (UInt64)
///      …        sections, each starting at a multiple of 8, zero padding between them
/// ```
/// Every number is in the writer's native byte order (little-endian on every platform Cairn builds for); the mark
/// lets a reader with the other order refuse the file instead of misreading it. The fields before the checksum are
/// each checked on their own (magic, mark, version, length); the table checksum covers the section table and the
/// block checksums; the block checksums cover every byte of the sections.
///
/// Block checksums (`BSUM`, the last section): the bytes from the end of the section table (rounded up to 8) to the
/// start of `BSUM` are cut into blocks of `blockBytes` (the last one shorter), and `BSUM` holds each block's XXH64
/// (seed 0) as a UInt64. A reader verifies a block the first time it reads from it (`SnapshotBlockVerifier`), so a
/// one-off query on a mapped snapshot reads, and checks, the few pages it needs instead of the whole file.
/// A reader ignores sections it does not know; a change that old readers would misread bumps the version.
///
/// The sections of a `FeatureIndex` snapshot (n features, m of them with a radius):
/// - `BSUM`: the block checksums (see above), always the last section.
/// - `META`: metadata pairs chosen by the writer (a store's identity and generation): UInt32 count, then per pair
///   UInt32 key length, key UTF-8, UInt32 value length, value UTF-8.
/// - `STRO`, `STRB`: the string table: UInt32 offsets[k + 1] into the UTF-8 bytes of `STRB` (ids, attribute names,
///   string values and set members, each distinct string once).
/// - `FEAT`: n records of 24 bytes: id (UInt32 string), kind (UInt8, `FeatureKind` code), flags (UInt8: 1 radius,
///   2 time window, 4 shape), zero (UInt16), first attribute (UInt32), attribute count (UInt32), first optional value
///   (UInt32, a Double's index in `FOPT`), point position (UInt32: where `PIDS`/`PCRD` hold the feature's location),
///   so that one feature decodes without the others.
/// - `FOPT`: the optional values, in feature order, as Doubles: the radius in metres when flag 1 is set, then the
///   window's start and end (seconds since 1970) when flag 2 is set, then the shape's number (0, 1, ... in feature
///   order) when flag 4 is set.
/// - `SHPO`, `SHPB`: the shapes (`Feature.shape`): UInt64 offsets[s + 1] into `SHPB`, which holds each shape's WKB
///   (`Shape.wkb`), in feature order.
/// - `ATTN`, `ATTV`: one entry per attribute, each feature's sorted by name: `ATTN` UInt32 name (string index, low
///   28 bits) | type << 28 (0 string, 1 number, 2 bool, 3 time, 4 set); `ATTV` UInt64 payload: string index,
///   Double bits, 0 or 1, Double bits, or first member | member count << 32 into `SETM`.
/// - `SETM`: UInt32 string indices of string-set members, each set's in ascending order.
/// - `PIDX`: the point index's count n and bucket size (UInt32 each); `PIDS`: its UInt32 items in tree order;
///   `PCRD`: its Double longitude, latitude pairs in tree order.
/// - `CTRE`: the circle index's circle count m and bucket size (UInt32 each); `CIDS`: its UInt32 circle numbers
///   (0..<m, the features with a radius in feature order) in tree order; `CCRD`: the centres' Double longitude,
///   latitude pairs in tree order; `CVAL`: Double latitude, longitude, radius per circle; `CMAX`: each tree node's
///   largest radius (Double, heap order); `CITM`: UInt32 feature position per circle. All derived from the features:
///   `FeatureIndex(snapshot:)` checks that they agree with them.
///
/// Version 5 (shapes: flag 4, `SHPO`, `SHPB`) replaced version 4, which (block checksums verified on first read) replaced version 3 (one checksum of the whole file, verified
/// at open), which (records that decode one at a time and circle arrays stored, for mapping) replaced version 2 (circles
/// in one tree with per-node largest radii), which replaced version 1 (circles in radius tiers). Other versions are
/// refused; a store rebuilds its snapshot.
public enum SnapshotFormat {
    /// The first 8 bytes of every snapshot.
    public static let magic: [UInt8] = Array("CAIRNSNP".utf8)
    /// The format version this build writes and reads.
    public static let version: UInt32 = 5
    /// The byte-order mark as written by a machine of this build's byte order.
    static let byteOrderMark: UInt32 = 0x0A0B_0C0D
    /// Bytes before the section table.
    public static let headerBytes = 40
    /// Bytes per section-table entry.
    static let sectionEntryBytes = 24
    /// Offset of the table checksum field; it covers the section table, which starts at `checksumStart`.
    static let checksumOffset = 24
    static let checksumStart = 32
    /// Bytes per checksummed block: one page, so that verifying what a query reads costs about what reading it does.
    static let blockBytes = 4096
    /// Where the sections start: the end of the section table, rounded up to a multiple of 8.
    static func sectionsStart(sectionCount: Int) -> Int { aligned(headerBytes + sectionCount * sectionEntryBytes) }
    /// `offset` rounded up to a multiple of 8.
    static func aligned(_ offset: Int) -> Int { (offset + 7) & ~7 }

    /// One entry of the section table as written (nothing checked).
    struct SectionEntry {
        let tag: UInt32
        let offset: UInt64
        let byteCount: UInt64

        /// Whether the section lies within a file of `fileBytes` bytes.
        func fits(in fileBytes: Int) -> Bool { offset <= UInt64(fileBytes) && byteCount <= UInt64(fileBytes) - offset }
    }

    /// The first `count` entries of the section table of `file`, which must hold them (the caller checks).
    /// - Complexity: O(count).
    static func sectionEntries(_ file: UnsafeRawBufferPointer, count: Int) -> [SectionEntry] {
        (0..<count).map { entry in
            let at = headerBytes + entry * sectionEntryBytes
            return SectionEntry(tag: file.loadUnaligned(fromByteOffset: at, as: UInt32.self),
                                offset: file.loadUnaligned(fromByteOffset: at + 8, as: UInt64.self),
                                byteCount: file.loadUnaligned(fromByteOffset: at + 16, as: UInt64.self))
        }
    }

    /// The byte range of the block checksums (`BSUM`) among `entries`, when it lies within a file of `fileBytes`.
    /// - Complexity: O(entries).
    static func blockChecksums(in entries: [SectionEntry], fileBytes: Int) -> Range<Int>? {
        entries.first { $0.tag == tag("BSUM") && $0.fits(in: fileBytes) }.map { Int($0.offset)..<Int($0.offset + $0.byteCount) }
    }

    /// A section tag from its 4-character name.
    static func tag(_ name: StaticString) -> UInt32 {
        precondition(name.utf8CodeUnitCount == 4, "section tags are 4 ASCII characters")
        let p = name.utf8Start
        return UInt32(p[0]) | UInt32(p[1]) << 8 | UInt32(p[2]) << 16 | UInt32(p[3]) << 24
    }

    /// A tag's printable name (non-printable bytes as `?`).
    static func name(ofTag tag: UInt32) -> String {
        var text = ""
        for shift in stride(from: 0, to: 32, by: 8) {
            let byte = UInt8(truncatingIfNeeded: tag >> UInt32(shift))
            text.append(byte >= 32 && byte < 127 ? Character(Unicode.Scalar(byte)) : "?")
        }
        return text
    }
}
