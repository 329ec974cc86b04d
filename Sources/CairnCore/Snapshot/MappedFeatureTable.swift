/// The features of a mapped snapshot, read in place and decoded one at a time (`FEAT`, `FOPT`, `ATTN`, `ATTV`,
/// `SETM`, `SHPO`, `SHPB`, the string table and the point coordinates; see `SnapshotFormat`).
///
/// Each feature's bytes are verified against the file's block checksums when it is decoded (`SnapshotBlockVerifier`;
/// the point coordinates were verified when the file was mapped), so a feature decodes from the bytes Cairn wrote,
/// or the damage is recorded for the caller to see (`FeatureIndex.snapshotDamage`). Every read is bounds-checked:
/// damaged bytes, or a file forged with matching checksums, decode to wrong values (an out-of-range string reads as
/// empty, an out-of-range attribute is left out), never to a crash. `FeatureIndex(snapshot:)` checks every value.
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
    /// Where each shape's WKB starts and ends in `shapeBytes`.
    let shapeOffsets: IndexBuffer<UInt64>
    let shapeBytes: IndexBuffer<UInt8>
    /// The point index's coordinates (longitude, latitude per tree position).
    let pointCoordinates: IndexBuffer<Double>
    /// Verifies the blocks a decode reads.
    let verifier: SnapshotBlockVerifier
    /// Where the sections above start in the file, for `verifier`.
    private let recordsStart, optionalStart, namesStart, valuesStart, membersStart, offsetsStart, bytesStart: Int
    private let shapeOffsetsStart, shapeBytesStart: Int

    /// Words per `FEAT` record.
    static let recordWords = FeatureIndex.recordBytes / 4

    /// The sections of `file` that hold its features, after checking their lengths.
    /// - Throws: `SnapshotError` for a missing section or one whose length does not fit `count` features.
    /// - Complexity: O(1).
    init(_ file: SnapshotFile, count: Int, pointCoordinates: IndexBuffer<Double>) throws(SnapshotError) {
        self.count = count
        func start(_ name: StaticString) -> Int { file.sections[SnapshotFormat.tag(name)]?.lowerBound ?? 0 }
        records = try file.view(SnapshotFormat.tag("FEAT"), of: UInt32.self, count: MappedFeatureTable.recordWords * count, verifyingNow: false)
        optionalValues = try file.view(SnapshotFormat.tag("FOPT"), of: Double.self, verifyingNow: false)
        attributeNames = try file.view(SnapshotFormat.tag("ATTN"), of: UInt32.self, verifyingNow: false)
        attributeValues = try file.view(SnapshotFormat.tag("ATTV"), of: UInt64.self, count: attributeNames.count, verifyingNow: false)
        setMembers = try file.view(SnapshotFormat.tag("SETM"), of: UInt32.self, verifyingNow: false)
        stringOffsets = try file.view(SnapshotFormat.tag("STRO"), of: UInt32.self, verifyingNow: false)
        stringBytes = try file.view(SnapshotFormat.tag("STRB"), of: UInt8.self, verifyingNow: false)
        shapeOffsets = try file.view(SnapshotFormat.tag("SHPO"), of: UInt64.self, verifyingNow: false)
        shapeBytes = try file.view(SnapshotFormat.tag("SHPB"), of: UInt8.self, verifyingNow: false)
        (shapeOffsetsStart, shapeBytesStart) = (start("SHPO"), start("SHPB"))
        (recordsStart, optionalStart, namesStart, valuesStart) = (start("FEAT"), start("FOPT"), start("ATTN"), start("ATTV"))
        (membersStart, offsetsStart, bytesStart) = (start("SETM"), start("STRO"), start("STRB"))
        verifier = file.verifier
        guard !stringOffsets.isEmpty else {
            throw SnapshotError(path: file.path, reason: .invalidContent(section: "STRO", detail: "holds no offsets"))
        }
        self.pointCoordinates = pointCoordinates
    }

    /// Verifies elements `range` of the section starting at byte `start` whose elements are `stride` bytes; damage
    /// is recorded by the verifier.
    @inline(__always)
    private func verify(_ start: Int, stride: Int, _ range: Range<Int>) {
        _ = verifier.verify((start + stride * range.lowerBound)..<(start + stride * range.upperBound))
    }

    /// The string at `index` of the table, or "" when the index or its offsets are out of range.
    /// - Complexity: O(length).
    func string(_ index: UInt32) -> String {
        let i = Int(index)
        guard i + 1 < stringOffsets.count else { return "" }
        verify(offsetsStart, stride: 4, i..<(i + 2))
        let start = Int(stringOffsets[i]), end = Int(stringOffsets[i + 1])
        guard start <= end, end <= stringBytes.count else { return "" }
        verify(bytesStart, stride: 1, start..<end)
        // Invalid UTF-8 becomes U+FFFD.
        return stringBytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[start..<end]), as: UTF8.self) }
    }

    /// The optional value at `index`, or nil when out of range.
    private func optionalValue(_ index: Int) -> Double? {
        guard index >= 0 && index < optionalValues.count else { return nil }
        verify(optionalStart, stride: 8, index..<(index + 1))
        return optionalValues[index]
    }

    /// The kind of the feature at `position` (0..<count), read from its record alone.
    /// - Complexity: O(1).
    func kind(at position: Int) -> FeatureKind {
        let r = MappedFeatureTable.recordWords * position
        verify(recordsStart, stride: 4, r..<(r + MappedFeatureTable.recordWords))
        return FeatureKind(snapshotCode: UInt8(truncatingIfNeeded: records[r + 1])) ?? .place
    }

    /// The feature at `position` (0..<count), decoded.
    /// - Complexity: O(a log a) for a feature with a attributes (its dictionary).
    func feature(at position: Int) -> Feature {
        let r = MappedFeatureTable.recordWords * position
        verify(recordsStart, stride: 4, r..<(r + MappedFeatureTable.recordWords))
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
            optional += 2
        }
        var shape: Shape?
        if flags & 4 != 0, let number = optionalValue(optional) { shape = self.shape(number) }
        let location = 2 * point + 1 < pointCoordinates.count
            ? Coordinate(uncheckedLatitude: pointCoordinates[2 * point + PointIndex.Axis.latitude],
                         longitude: pointCoordinates[2 * point + PointIndex.Axis.longitude])
            : Coordinate(uncheckedLatitude: 0, longitude: 0)
        var attributes: [String: AttributeValue] = [:]
        if firstAttribute <= attributeNames.count, attributeCount <= attributeNames.count - firstAttribute {
            attributes.reserveCapacity(attributeCount)
            verify(namesStart, stride: 4, firstAttribute..<(firstAttribute + attributeCount))
            verify(valuesStart, stride: 8, firstAttribute..<(firstAttribute + attributeCount))
            for a in firstAttribute..<(firstAttribute + attributeCount) {
                let word = attributeNames[a], payload = attributeValues[a]
                if let value = attributeValue(type: word >> 28, payload: payload) {
                    attributes[string(word & (1 << 28 - 1))] = value
                }
            }
        }
        return Feature(uncheckedId: id, kind: kind, location: location, radiusMeters: radius, timeWindow: window,
                       attributes: attributes, shape: shape)
    }

    /// Calls `body(position, shape)` for each feature with a shape, in position order, reading only its record,
    /// its optional values and its WKB (no strings, no attributes): what the shape index is built from.
    /// - Complexity: O(n) records plus O(b) for b bytes of WKB; nothing when the snapshot holds no shape.
    func forEachShape(_ body: (Int, Shape) -> Void) {
        guard shapeOffsets.count > 1 else { return }
        for position in 0..<count {
            let r = MappedFeatureTable.recordWords * position
            verify(recordsStart, stride: 4, r..<(r + MappedFeatureTable.recordWords))
            let flags = UInt8(truncatingIfNeeded: records[r + 1] >> 8)
            guard flags & 4 != 0 else { continue }
            // The optional values in `feature(at:)`'s order: the radius, the time window's two ends, the shape.
            let optional = Int(records[r + 4]) + (flags & 1 != 0 ? 1 : 0) + (flags & 2 != 0 ? 2 : 0)
            if let number = optionalValue(optional), let shape = shape(number) { body(position, shape) }
        }
    }

    /// Shape number `number` (stored as a Double), or nil when it or its bytes are out of range or not WKB.
    /// - Complexity: O(b) for its b bytes of WKB.
    private func shape(_ number: Double) -> Shape? {
        guard number >= 0, number < Double(shapeOffsets.count - 1), number == number.rounded() else { return nil }
        let index = Int(number)
        verify(shapeOffsetsStart, stride: 8, index..<(index + 2))
        let start = Int(clamping: shapeOffsets[index]), end = Int(clamping: shapeOffsets[index + 1])
        guard start <= end, end <= shapeBytes.count else { return nil }
        verify(shapeBytesStart, stride: 1, start..<end)
        let parts = shapeBytes.withUnsafeBufferPointer { try? ShapeParts(wkb: UnsafeBufferPointer(rebasing: $0[start..<end])) }
        return parts.map(Shape.init(unchecked:))
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
            verify(membersStart, stride: 4, first..<(first + size))
            return .stringSet((first..<(first + size)).map { string(setMembers[$0]) })
        default: return nil
        }
    }
}
