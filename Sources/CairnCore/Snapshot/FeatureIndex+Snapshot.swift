extension FeatureIndex {
    /// The index as one snapshot file (see `SnapshotFormat`), with `metadata` stored alongside.
    ///
    /// The bytes are deterministic: the same index and metadata give the same file.
    /// - Complexity: O(n log n) (attributes are sorted by name); the file is about 24 bytes per feature (plus 8 per
    ///   optional value), the distinct strings, 12 bytes per attribute, 20 per point and about 60 per circle.
    public func snapshotBytes(metadata: [String: String] = [:]) -> [UInt8] {
        var builder = snapshotBuilder(metadata: metadata, spill: nil)
        do {
            return try builder.finish()
        } catch {
            // Only a spill file can fail to be read, and these sections are all in memory.
            preconditionFailure("a snapshot in memory failed to assemble: \(error)")
        }
    }

    /// The index's snapshot sections: its features encoded in order (`FeatureTableEncoder`, whose sections move to
    /// `spill` as they grow, when given) and its trees read in place.
    /// - Complexity: O(n log n) (attributes are sorted by name).
    func snapshotBuilder(metadata: [String: String], spill: SnapshotSpill?) -> SnapshotBuilder {
        var table = FeatureTableEncoder(spill: spill, expectedCount: features.count)
        for feature in features { table.append(feature) }
        return FeatureIndex.snapshotBuilder(metadata: metadata, table: &table, points: points, circleItems: circleItems,
                                            circles: circles)
    }

    /// The sections of a snapshot: `META`, the feature table, then the trees (see `SnapshotFormat`). The one
    /// layout of every snapshot.
    /// - Complexity: O(n).
    static func snapshotBuilder(metadata: [String: String], table: inout FeatureTableEncoder, points: PointIndex,
                                circleItems: IndexBuffer<UInt32>, circles: CircleIndex) -> SnapshotBuilder {
        var builder = SnapshotBuilder()
        var meta = ByteSink()
        meta.append(UInt32(metadata.count))
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
            meta.appendString(key)
            meta.appendString(value)
        }
        builder.add(SnapshotFormat.tag("META"), meta.bytes)
        table.addSections(to: &builder, pointIds: points.ids)
        var pointHeader = ByteSink()
        pointHeader.append(UInt32(points.count))
        pointHeader.append(UInt32(points.bucketSize))
        builder.add(SnapshotFormat.tag("PIDX"), pointHeader.bytes)
        builder.add(SnapshotFormat.tag("PIDS"), .words(points.ids))
        builder.add(SnapshotFormat.tag("PCRD"), .doubles(points.coordinates))
        circles.appendSnapshotSections(to: &builder)
        builder.add(SnapshotFormat.tag("CITM"), .words(circleItems))
        return builder
    }

    /// Writes the index's snapshot to `path` atomically: to a temporary file in the same folder, flushed to disk,
    /// then renamed over `path`, so a reader sees the old file or the new one, never a part. Temporary files of
    /// `path` left by writers that were killed before their rename are removed first. The feature table is
    /// written through a scratch file next to `path` as it is encoded, so the file is never held whole in memory.
    /// - Throws: `SnapshotError` with reason `.io` when the file cannot be written.
    /// - Returns: the number of bytes written.
    /// - Complexity: O(n log n), as `snapshotBytes(metadata:)`, plus the write.
    @discardableResult
    public func writeSnapshot(to path: String, metadata: [String: String] = [:]) throws(SnapshotError) -> Int {
        SnapshotFileWriter.removeStaleTemporaries(of: path)
        let builder = snapshotBuilder(metadata: metadata, spill: SnapshotSpill(nextTo: path))
        return try SnapshotFileWriter.writeAtomically(builder, to: path, mapping: false).byteCount
    }

    /// Loads an index from a checked snapshot file without rebuilding it, validating every value queries rely on:
    /// each feature as `Feature`'s initialiser does, string and attribute references, and both indexes' layouts
    /// (permutations, coordinates, k-d order).
    /// - Throws: `SnapshotError`: `.checksumMismatch` for a damaged block (every block is verified first), or
    ///   `.missingSection` or `.invalidContent` for a file that passed its checksums but does not hold a consistent
    ///   index.
    /// - Complexity: O(n log n).
    public init(snapshot file: SnapshotFile) throws(SnapshotError) {
        try file.verifyAll()
        // The point index first: the features' locations are its coordinates.
        var pointHeader = try file.reader(SnapshotFormat.tag("PIDX"))
        let count = Int(try pointHeader.uint32()), bucketSize = Int(try pointHeader.uint32())
        try pointHeader.expectEnd()
        var idReader = try file.reader(SnapshotFormat.tag("PIDS"))
        let ids = try idReader.array(of: UInt32.self, count: count)
        try idReader.expectEnd()
        var coordinateReader = try file.reader(SnapshotFormat.tag("PCRD"))
        let pointCoordinates = try coordinateReader.array(of: Double.self, count: 2 * count)
        try coordinateReader.expectEnd()
        let points: PointIndex
        do throws(PointIndexLayoutError) {
            points = try PointIndex(validatingIds: ids, coordinates: pointCoordinates, bucketSize: bucketSize)
        } catch {
            throw idReader.invalid(error.detail)
        }
        var locations = [Coordinate](repeating: Coordinate(uncheckedLatitude: 0, longitude: 0), count: count)
        for p in 0..<count {
            // Range-checked by the point index above.
            locations[Int(ids[p])] = Coordinate(uncheckedLatitude: pointCoordinates[2 * p + PointIndex.Axis.latitude],
                                                longitude: pointCoordinates[2 * p + PointIndex.Axis.longitude])
        }

        let strings = try StringTable(file)
        let features = try FeatureIndex.decodeFeatures(file, strings: strings, locations: locations, pointIds: ids)

        var circleItems = ContiguousArray<UInt32>()
        var circleValues = ContiguousArray<Double>()
        for (position, feature) in features.enumerated() {
            if let radius = feature.radiusMeters {
                circleItems.append(UInt32(truncatingIfNeeded: position))
                circleValues.append(feature.location.latitude)
                circleValues.append(feature.location.longitude)
                circleValues.append(radius)
            }
        }
        let circles = try CircleIndex(snapshot: file, circles: circleValues)
        // The sections a mapped index reads in place must hold exactly what the features imply.
        let storedItems = try file.view(SnapshotFormat.tag("CITM"), of: UInt32.self)
        guard storedItems == IndexBuffer(circleItems) else {
            throw SnapshotError(path: file.path, reason: .invalidContent(section: "CITM", detail: "does not list the features with a radius"))
        }
        self.features = FeatureList(features)
        self.points = points
        self.circleItems = IndexBuffer(circleItems)
        self.circles = circles
        circleCheck = nil
        shapes = FeatureShapeCache(self.features)
    }

    /// Bytes per `FEAT` record.
    static let recordBytes = 24

    /// Decodes `FEAT`, `FOPT`, `ATTN`, `ATTV` and `SETM` into validated features.
    private static func decodeFeatures(_ file: SnapshotFile, strings: StringTable, locations: [Coordinate],
                                       pointIds: ContiguousArray<UInt32>) throws(SnapshotError) -> [Feature] {
        let count = locations.count
        var recordReader = try file.reader(SnapshotFormat.tag("FEAT"))
        guard recordReader.byteCount == recordBytes * count else {
            throw recordReader.invalid("\(recordReader.byteCount) bytes for \(count) features of \(recordBytes) bytes")
        }
        var optionalReader = try file.reader(SnapshotFormat.tag("FOPT"))
        var nameReader = try file.reader(SnapshotFormat.tag("ATTN"))
        let attributeNames = try nameReader.array(of: UInt32.self, count: nameReader.byteCount / 4)
        try nameReader.expectEnd()
        var attributeReader = try file.reader(SnapshotFormat.tag("ATTV"))
        let attributeValues = try attributeReader.array(of: UInt64.self, count: attributeNames.count)
        try attributeReader.expectEnd()
        var memberReader = try file.reader(SnapshotFormat.tag("SETM"))
        let members = try memberReader.array(of: UInt32.self, count: memberReader.byteCount / 4)
        try memberReader.expectEnd()
        let attributeTotal = attributeNames.count
        var offsetReader = try file.reader(SnapshotFormat.tag("SHPO"))
        let shapeOffsets = try offsetReader.array(of: UInt64.self, count: offsetReader.byteCount / 8)
        try offsetReader.expectEnd()
        var shapeReader = try file.reader(SnapshotFormat.tag("SHPB"))
        let shapeBytes = try shapeReader.array(of: UInt8.self, count: shapeReader.byteCount)
        try shapeReader.expectEnd()
        var nextShape = 0

        func string(_ index: UInt32, _ what: @autoclosure () -> String, _ reader: SectionReader) throws(SnapshotError) -> String {
            guard Int(index) < strings.count else {
                throw reader.invalid("\(what()) refers to string \(index) of \(strings.count)")
            }
            return strings[Int(index)]
        }

        var features: [Feature] = []
        features.reserveCapacity(count)
        for position in 0..<count {
            let idIndex = try recordReader.uint32()
            let head = try recordReader.uint32()
            let firstAttribute = Int(try recordReader.uint32()), attributeCount = Int(try recordReader.uint32())
            let firstOptional = Int(try recordReader.uint32()), pointPosition = Int(try recordReader.uint32())
            let id = try string(idIndex, "feature \(position)'s id", recordReader)
            guard firstOptional * 8 == optionalReader.position - optionalReader.range.lowerBound else {
                throw recordReader.invalid("feature '\(id)' has its optional values at \(firstOptional), not where the previous end")
            }
            guard pointPosition < count, pointIds[pointPosition] == UInt32(truncatingIfNeeded: position) else {
                throw recordReader.invalid("feature '\(id)' names point position \(pointPosition), which holds another item")
            }
            let kindCode = UInt8(truncatingIfNeeded: head), flags = UInt8(truncatingIfNeeded: head >> 8)
            guard let kind = FeatureKind(snapshotCode: kindCode) else {
                throw recordReader.invalid("feature '\(id)' has unknown kind code \(kindCode)")
            }
            guard flags & ~7 == 0, head >> 16 == 0 else { throw recordReader.invalid("feature '\(id)' has unknown flags") }
            let radius = flags & 1 == 0 ? 0 : try optionalReader.double()
            let start = flags & 2 == 0 ? 0 : try optionalReader.double()
            let end = flags & 2 == 0 ? 0 : try optionalReader.double()
            var shape: Shape?
            if flags & 4 != 0 {
                let number = try optionalReader.double()
                guard number == Double(nextShape), nextShape + 1 < shapeOffsets.count,
                      shapeOffsets[nextShape] <= shapeOffsets[nextShape + 1],
                      shapeOffsets[nextShape + 1] <= UInt64(shapeBytes.count) else {
                    throw shapeReader.invalid("feature '\(id)' names shape \(number), not shape \(nextShape) of \(shapeOffsets.count - 1) within the section")
                }
                do {
                    shape = try Shape(wkb: shapeBytes[Int(shapeOffsets[nextShape])..<Int(shapeOffsets[nextShape + 1])])
                } catch {
                    throw shapeReader.invalid("feature '\(id)': \(error)")
                }
                nextShape += 1
            }
            guard firstAttribute <= attributeTotal, attributeCount <= attributeTotal - firstAttribute else {
                throw recordReader.invalid("feature '\(id)' has attributes \(firstAttribute)..<\(firstAttribute + attributeCount) of \(attributeTotal)")
            }
            var attributes: [String: AttributeValue] = [:]
            attributes.reserveCapacity(attributeCount)
            for a in firstAttribute..<(firstAttribute + attributeCount) {
                let word = attributeNames[a], payload = attributeValues[a]
                let name = try string(word & (1 << 28 - 1), "an attribute name of '\(id)'", nameReader)
                let type = word >> 28
                let value: AttributeValue
                switch type {
                case 0: value = .string(try string(UInt32(truncatingIfNeeded: payload), "attribute '\(name)' of '\(id)'", attributeReader))
                case 1: value = .number(Double(bitPattern: payload))
                case 2 where payload <= 1: value = .bool(payload == 1)
                case 3 where FeatureIndex.isUsableTime(Double(bitPattern: payload)):
                    value = .time(Timestamp(secondsSince1970: Double(bitPattern: payload)))
                case 4:
                    let first = Int(payload & 0xFFFF_FFFF), size = Int(payload >> 32)
                    guard first <= members.count, size <= members.count - first else {
                        throw attributeReader.invalid("set '\(name)' of '\(id)' has members \(first)..<\(first + size) of \(members.count)")
                    }
                    var set: [String] = []
                    set.reserveCapacity(size)
                    for m in first..<(first + size) {
                        let member = try string(members[m], "a member of set '\(name)' of '\(id)'", attributeReader)
                        if let last = set.last, !(last < member) {
                            throw attributeReader.invalid("set '\(name)' of '\(id)' is not sorted without repeats")
                        }
                        set.append(member)
                    }
                    value = .stringSet(set)
                default:
                    throw attributeReader.invalid("attribute '\(name)' of '\(id)' has unknown type \(type) or payload \(payload)")
                }
                guard attributes.updateValue(value, forKey: name) == nil else {
                    throw attributeReader.invalid("attribute '\(name)' of '\(id)' appears twice")
                }
            }
            do throws(FeatureError) {
                let window = flags & 2 == 0 ? nil
                    : try TimeWindow(start: Timestamp(secondsSince1970: start), end: Timestamp(secondsSince1970: end))
                guard window == nil || (FeatureIndex.isUsableTime(start) && FeatureIndex.isUsableTime(end)) else {
                    throw FeatureError.invalidAttribute(name: "time", value: "\(start)...\(end)", expected: "finite times")
                }
                features.append(try Feature(id: id, kind: kind, location: locations[position],
                                            radiusMeters: flags & 1 == 0 ? nil : radius, timeWindow: window,
                                            attributes: attributes, shape: shape))
            } catch {
                throw recordReader.invalid("feature '\(id)': \(error)")
            }
        }
        try optionalReader.expectEnd()
        guard shapeOffsets.count == nextShape + 1, shapeOffsets.first == 0, shapeOffsets.last == UInt64(shapeBytes.count) else {
            throw offsetReader.invalid("holds \(shapeOffsets.count) offsets for \(nextShape) shapes of \(shapeBytes.count) bytes")
        }
        return features
    }
}

extension FeatureIndex {
    /// Whether a stored time can be printed and compared: finite and within about 3 billion years of 1970
    /// (`Timestamp.iso8601` converts the seconds to a 64-bit integer).
    static func isUsableTime(_ seconds: Double) -> Bool { seconds.isFinite && abs(seconds) < 1e17 }
}

extension FeatureKind {
    /// The kind's byte in a snapshot: fixed codes, independent of the order of declaration.
    var snapshotCode: UInt8 {
        switch self {
        case .park: 0
        case .trailhead: 1
        case .place: 2
        case .event: 3
        case .user: 4
        case .sighting: 5
        }
    }

    init?(snapshotCode: UInt8) {
        switch snapshotCode {
        case 0: self = .park
        case 1: self = .trailhead
        case 2: self = .place
        case 3: self = .event
        case 4: self = .user
        case 5: self = .sighting
        default: return nil
        }
    }
}
