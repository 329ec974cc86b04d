/// Encodes features, one at a time and in order, into a snapshot's feature table (`STRO`, `STRB`, `FEAT`, `FOPT`,
/// `ATTN`, `ATTV`, `SETM`, `SHPO`, `SHPB`; see `SnapshotFormat`): the one encoder of every snapshot, whether the features come from
/// an index in memory (`FeatureIndex.snapshotBytes`) or stream from a store (`FeatureSnapshotWriter`).
///
/// A record's point position (where the point tree holds the feature) is known only once the tree is built after
/// the last feature: it is written as 0 and filled in as the file is put out (`addSections`).
struct FeatureTableEncoder {
    private var strings: StringTableBuilder
    private var records: SectionSpool
    private var optional: SectionSpool
    private var attributeNames: SectionSpool
    private var attributeValues: SectionSpool
    private var setMembers: SectionSpool
    /// Where each shape's WKB ends in `shapeBytes` (UInt64, after a leading 0).
    private var shapeOffsets: SectionSpool
    private var shapeBytes: SectionSpool
    private var shapeCount = 0
    private var optionalCount: UInt32 = 0
    private var attributeCount: UInt32 = 0
    private var memberCount: UInt32 = 0
    /// The number of features encoded.
    private(set) var count = 0

    /// An empty table whose sections move to `spill` as they grow, when given; `expectedCount` features are
    /// expected (room is reserved for their records when they stay in memory).
    init(spill: SnapshotSpill?, expectedCount: Int = 0) {
        strings = StringTableBuilder(spill: spill)
        records = SectionSpool(spill: spill)
        if spill == nil { records.reserveCapacity(FeatureIndex.recordBytes * expectedCount) }
        optional = SectionSpool(spill: spill)
        attributeNames = SectionSpool(spill: spill)
        attributeValues = SectionSpool(spill: spill)
        setMembers = SectionSpool(spill: spill)
        shapeOffsets = SectionSpool(spill: spill)
        shapeOffsets.append(UInt64(0))
        shapeBytes = SectionSpool(spill: spill)
    }

    /// The bytes of the sections held in memory, not moved to the spill file.
    var bytesInMemory: Int {
        strings.bytesInMemory + records.bytesInMemory + optional.bytesInMemory + attributeNames.bytesInMemory
            + attributeValues.bytesInMemory + setMembers.bytesInMemory + shapeOffsets.bytesInMemory + shapeBytes.bytesInMemory
    }

    /// Encodes the next feature.
    /// - Complexity: O(a log a) for a attributes.
    mutating func append(_ feature: Feature) {
        records.append(strings.add(feature.id, unique: true))
        records.append(feature.kind.snapshotCode)
        records.append(UInt8((feature.radiusMeters == nil ? 0 : 1) | (feature.timeWindow == nil ? 0 : 2)
                             | (feature.shape == nil ? 0 : 4)))
        records.append(UInt16(0))
        records.append(attributeCount)
        records.append(UInt32(feature.attributes.count))
        records.append(optionalCount)
        records.append(UInt32(0)) // the point position, filled in by `addSections`
        if let radius = feature.radiusMeters {
            optional.append(radius)
            optionalCount += 1
        }
        if let window = feature.timeWindow {
            optional.append(window.start.secondsSince1970)
            optional.append(window.end.secondsSince1970)
            optionalCount += 2
        }
        if let shape = feature.shape {
            // The shape's number, exact in a Double (at most 2^32 features).
            optional.append(Double(shapeCount))
            optionalCount += 1
            shapeBytes.append(wkbOf: shape)
            shapeOffsets.append(UInt64(shapeBytes.byteCount))
            shapeCount += 1
        }
        for (name, value) in feature.attributes.sorted(by: { $0.key < $1.key }) {
            let nameIndex = strings.add(name)
            let (type, payload): (UInt32, UInt64)
            switch value {
            case .string(let text): (type, payload) = (0, UInt64(strings.add(text)))
            case .number(let number): (type, payload) = (1, number.bitPattern)
            case .bool(let flag): (type, payload) = (2, flag ? 1 : 0)
            case .time(let time): (type, payload) = (3, time.secondsSince1970.bitPattern)
            case .stringSet(let members):
                (type, payload) = (4, UInt64(memberCount) | UInt64(members.count) << 32)
                for member in members { setMembers.append(strings.add(member)) }
                memberCount += UInt32(members.count)
            }
            precondition(nameIndex < 1 << 28, "a snapshot holds at most 2^28 distinct strings")
            attributeNames.append(nameIndex | type << 28)
            attributeValues.append(payload)
        }
        attributeCount += UInt32(feature.attributes.count)
        count += 1
        records.spillIfFull()
        optional.spillIfFull()
        attributeNames.spillIfFull()
        attributeValues.spillIfFull()
        setMembers.spillIfFull()
        shapeOffsets.spillIfFull()
        shapeBytes.spillIfFull()
        strings.spillIfFull()
    }

    /// Releases what only encoding needs (the lookup of strings seen), before the trees are built.
    mutating func endEncoding() { strings.releaseLookup() }

    /// Adds the table's sections to `builder`, with each record's point position taken from `pointIds` (the point
    /// tree's items in tree order), leaving the encoder empty.
    /// - Complexity: O(n) for n features.
    mutating func addSections(to builder: inout SnapshotBuilder, pointIds: IndexBuffer<UInt32>) {
        precondition(pointIds.count == count, "the point tree holds \(pointIds.count) items for \(count) features")
        var positions = [UInt32](repeating: 0, count: count)
        pointIds.withUnsafeBufferPointer { ids in
            for p in ids.indices { positions[Int(ids[p])] = UInt32(truncatingIfNeeded: p) }
        }
        let table = strings.takeTable()
        builder.add(SnapshotFormat.tag("STRO"), .spool(table.offsets, patch: nil))
        builder.add(SnapshotFormat.tag("STRB"), .spool(table.heap, patch: nil))
        builder.add(SnapshotFormat.tag("FEAT"), .spool(records, patch: { bytes, sectionOffset in
            FeatureTableEncoder.fillPointPositions(bytes, at: sectionOffset, positions: positions)
        }))
        builder.add(SnapshotFormat.tag("FOPT"), .spool(optional, patch: nil))
        builder.add(SnapshotFormat.tag("ATTN"), .spool(attributeNames, patch: nil))
        builder.add(SnapshotFormat.tag("ATTV"), .spool(attributeValues, patch: nil))
        builder.add(SnapshotFormat.tag("SETM"), .spool(setMembers, patch: nil))
        builder.add(SnapshotFormat.tag("SHPO"), .spool(shapeOffsets, patch: nil))
        builder.add(SnapshotFormat.tag("SHPB"), .spool(shapeBytes, patch: nil))
        self = FeatureTableEncoder(spill: nil)
    }

    /// Byte offset of the point position within a `FEAT` record.
    private static let pointPositionOffset = 20

    /// Writes each record's point position into `bytes`, a piece of `FEAT` starting at byte `sectionOffset` of the
    /// section; a position cut by the piece's edges gets the bytes that fall inside it.
    /// - Complexity: O(bytes / 24).
    static func fillPointPositions(_ bytes: UnsafeMutableRawBufferPointer, at sectionOffset: Int, positions: [UInt32]) {
        let recordBytes = FeatureIndex.recordBytes, end = sectionOffset + bytes.count
        var record = max(0, sectionOffset / recordBytes - 1)
        while record < positions.count {
            let field = record * recordBytes + pointPositionOffset
            if field >= end { break }
            if field >= sectionOffset, field + 4 <= end {
                bytes.storeBytes(of: positions[record], toByteOffset: field - sectionOffset, as: UInt32.self)
            } else {
                withUnsafeBytes(of: positions[record]) { value in
                    for b in 0..<4 where field + b >= sectionOffset && field + b < end { bytes[field + b - sectionOffset] = value[b] }
                }
            }
            record += 1
        }
    }
}
