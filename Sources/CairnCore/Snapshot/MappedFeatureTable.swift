/// The features of a mapped snapshot, read in place and decoded one at a time (`FEAT`, `FOPT`, `ATTN`, `ATTV`,
/// `SETM`, the string table and the point coordinates; see `SnapshotFormat`).
///
/// The file's checksum was verified when it was opened, so its bytes are the ones Cairn wrote, and those decode to
/// valid features. Every read is still bounds-checked: a file forged with a matching checksum decodes to wrong
/// values (an out-of-range string reads as empty, an out-of-range attribute is left out), never to a crash.
/// `FeatureIndex(snapshot:)` checks every value instead.
struct MappedFeatureTable: Sendable {
    /// The number of features.
    let count: Int
    /// Six UInt32 words per feature (see `SnapshotFormat`, `FEAT`).
    let records: IndexBuffer<UInt32>
    let optionalValues: IndexBuffer<Double>
    let attributeNames: IndexBuffer<UInt32>
    let attributeValues: IndexBuffer<UInt64>
    let setMembers: IndexBuffer<UInt32>
    let stringOffsets: IndexBuffer<UInt32>
    let stringBytes: IndexBuffer<UInt8>
    /// The point index's coordinates (longitude, latitude per tree position).
    let pointCoordinates: IndexBuffer<Double>

    /// Words per `FEAT` record.
    static let recordWords = FeatureIndex.recordBytes / 4

    /// The sections of `file` that hold its features, after checking their lengths.
    /// - Throws: `SnapshotError` for a missing section or one whose length does not fit `count` features.
    /// - Complexity: O(1).
    init(_ file: SnapshotFile, count: Int, pointCoordinates: IndexBuffer<Double>) throws(SnapshotError) {
        self.count = count
        records = try file.view(SnapshotFormat.tag("FEAT"), of: UInt32.self, count: MappedFeatureTable.recordWords * count)
        optionalValues = try file.view(SnapshotFormat.tag("FOPT"), of: Double.self)
        attributeNames = try file.view(SnapshotFormat.tag("ATTN"), of: UInt32.self)
        attributeValues = try file.view(SnapshotFormat.tag("ATTV"), of: UInt64.self, count: attributeNames.count)
        setMembers = try file.view(SnapshotFormat.tag("SETM"), of: UInt32.self)
        stringOffsets = try file.view(SnapshotFormat.tag("STRO"), of: UInt32.self)
        stringBytes = try file.view(SnapshotFormat.tag("STRB"), of: UInt8.self)
        guard !stringOffsets.isEmpty else {
            throw SnapshotError(path: file.path, reason: .invalidContent(section: "STRO", detail: "holds no offsets"))
        }
        self.pointCoordinates = pointCoordinates
    }

    /// The string at `index` of the table, or "" when the index or its offsets are out of range.
    /// - Complexity: O(length).
    func string(_ index: UInt32) -> String {
        let i = Int(index)
        guard i + 1 < stringOffsets.count else { return "" }
        let start = Int(stringOffsets[i]), end = Int(stringOffsets[i + 1])
        guard start <= end, end <= stringBytes.count else { return "" }
        // Invalid UTF-8 becomes U+FFFD.
        return stringBytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[start..<end]), as: UTF8.self) }
    }

    /// The optional value at `index`, or nil when out of range.
    private func optionalValue(_ index: Int) -> Double? {
        index >= 0 && index < optionalValues.count ? optionalValues[index] : nil
    }

    /// The feature at `position` (0..<count), decoded.
    /// - Complexity: O(a log a) for a feature with a attributes (its dictionary).
    func feature(at position: Int) -> Feature {
        let r = MappedFeatureTable.recordWords * position
        let id = string(records[r])
        let head = records[r + 1]
        let kind = FeatureKind(snapshotCode: UInt8(truncatingIfNeeded: head)) ?? .place
        let flags = UInt8(truncatingIfNeeded: head >> 8)
        let firstAttribute = Int(records[r + 2]), attributeCount = Int(records[r + 3])
        var optional = Int(records[r + 4])
        let point = Int(records[r + 5])
        var radius: Double?
        if flags & 1 != 0 {
            radius = optionalValue(optional)
            optional += 1
        }
        var window: TimeWindow?
        if flags & 2 != 0, let start = optionalValue(optional), let end = optionalValue(optional + 1) {
            let from = Timestamp(secondsSince1970: start)
            window = (try? TimeWindow(start: from, end: Timestamp(secondsSince1970: end))) ?? TimeWindow(instant: from)
        }
        let location = 2 * point + 1 < pointCoordinates.count
            ? Coordinate(uncheckedLatitude: pointCoordinates[2 * point + PointIndex.Axis.latitude],
                         longitude: pointCoordinates[2 * point + PointIndex.Axis.longitude])
            : Coordinate(uncheckedLatitude: 0, longitude: 0)
        var attributes: [String: AttributeValue] = [:]
        if firstAttribute <= attributeNames.count, attributeCount <= attributeNames.count - firstAttribute {
            attributes.reserveCapacity(attributeCount)
            for a in firstAttribute..<(firstAttribute + attributeCount) {
                let word = attributeNames[a], payload = attributeValues[a]
                if let value = attributeValue(type: word >> 28, payload: payload) {
                    attributes[string(word & (1 << 28 - 1))] = value
                }
            }
        }
        return Feature(uncheckedId: id, kind: kind, location: location, radiusMeters: radius, timeWindow: window,
                       attributes: attributes)
    }

    /// An attribute's value from its type and payload (see `SnapshotFormat`, `ATTN`/`ATTV`); nil for an unknown type.
    private func attributeValue(type: UInt32, payload: UInt64) -> AttributeValue? {
        switch type {
        case 0: return .string(string(UInt32(truncatingIfNeeded: payload)))
        case 1: return .number(Double(bitPattern: payload))
        case 2: return .bool(payload == 1)
        case 3: return .time(Timestamp(secondsSince1970: Double(bitPattern: payload)))
        case 4:
            let first = Int(payload & 0xFFFF_FFFF), size = Int(payload >> 32)
            guard first <= setMembers.count, size <= setMembers.count - first else { return .stringSet([]) }
            return .stringSet((first..<(first + size)).map { string(setMembers[$0]) })
        default: return nil
        }
    }
}
