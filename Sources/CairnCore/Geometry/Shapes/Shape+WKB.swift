extension Shape {
    /// The shape as WKB (OGC Simple Features well-known binary, 2D, little-endian): how the store keeps it and the
    /// snapshot carries it.
    /// - Complexity: O(n) in the number of positions.
    public var wkb: [UInt8] {
        var out: [UInt8] = []
        appendWKB(to: &out)
        return out
    }

    /// Appends what `wkb` returns.
    /// - Complexity: O(n).
    public func appendWKB(to out: inout [UInt8]) {
        out.reserveCapacity(out.count + 9 + 16 * vertexCount + 4 * parts.ringEnds.count + 9 * parts.polygonEnds.count)
        func appendUInt32(_ value: UInt32) {
            withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
        }
        func header(_ kind: ShapeKind) {
            out.append(1) // little-endian
            appendUInt32(kind.rawValue)
        }
        func appendPositions(_ range: Range<Int>) {
            for position in range {
                withUnsafeBytes(of: parts.positions[2 * position].bitPattern.littleEndian) { out.append(contentsOf: $0) }
                withUnsafeBytes(of: parts.positions[2 * position + 1].bitPattern.littleEndian) { out.append(contentsOf: $0) }
            }
        }
        func appendRing(_ ring: Int, counted: Bool) {
            let range = parts.positionRange(ofRing: ring)
            if counted { appendUInt32(UInt32(range.count)) }
            appendPositions(range)
        }
        func appendPolygon(_ polygon: Int) {
            header(.polygon)
            let rings = parts.ringRange(ofPolygon: polygon)
            appendUInt32(UInt32(rings.count))
            for ring in rings { appendRing(ring, counted: true) }
        }
        switch kind {
        case .point:
            header(.point)
            appendRing(0, counted: false)
        case .lineString:
            header(.lineString)
            appendRing(0, counted: true)
        case .polygon:
            appendPolygon(0)
        case .multiPoint, .multiLineString:
            header(kind)
            appendUInt32(UInt32(parts.ringEnds.count))
            for ring in parts.ringEnds.indices {
                header(kind == .multiPoint ? .point : .lineString)
                appendRing(ring, counted: kind == .multiLineString)
            }
        case .multiPolygon:
            header(.multiPolygon)
            appendUInt32(UInt32(parts.polygonEnds.count))
            for polygon in parts.polygonEnds.indices { appendPolygon(polygon) }
        }
    }

    /// The shape in WKB `bytes`, checked as `init(checking:)` checks.
    ///
    /// Read: either byte order; ISO (type + 1000, 2000, 3000) and EWKB (high flag bits) Z and M ordinates, which
    /// are dropped; an EWKB SRID of 4326 (another SRID is refused: Cairn's coordinates are WGS84 degrees).
    /// - Throws: `ShapeError.invalidWKB` for bytes that are not one such geometry (with trailing bytes refused),
    ///   or the checks' errors.
    /// - Complexity: O(n) in the number of bytes.
    public init<Bytes: Collection<UInt8>>(wkb bytes: Bytes) throws(ShapeError) {
        try self.init(checking: ShapeParts(wkb: bytes))
    }
}

extension ShapeParts {
    /// The parts held by WKB `bytes`, unchecked (see `Shape(wkb:)` for what is read).
    /// - Throws: `ShapeError.invalidWKB`.
    /// - Complexity: O(n) in the number of bytes.
    public init<Bytes: Collection<UInt8>>(wkb bytes: Bytes) throws(ShapeError) {
        var reader = WKBReader(bytes: Array(bytes))
        let (kind, dimensions) = try reader.header()
        self.init(kind: kind)
        try reader.body(of: kind, dimensions: dimensions, into: &self)
        guard reader.offset == reader.bytes.count else {
            throw .invalidWKB("\(reader.bytes.count - reader.offset) bytes after the geometry")
        }
    }
}

/// Reads WKB one value at a time, every read bounds-checked.
private struct WKBReader {
    let bytes: [UInt8]
    var offset = 0
    var bigEndian = false

    /// Refuses a count that the remaining bytes cannot hold (`unit` bytes each), before anything is reserved.
    private func checkCount(_ count: Int, unit: Int, _ what: String) throws(ShapeError) {
        guard count <= (bytes.count - offset) / unit else {
            throw .invalidWKB("\(count) \(what) do not fit in the \(bytes.count - offset) bytes left at byte \(offset)")
        }
    }

    mutating func byte() throws(ShapeError) -> UInt8 {
        guard offset < bytes.count else { throw .invalidWKB("ends at byte \(offset), inside a geometry") }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func uint32() throws(ShapeError) -> UInt32 { try unsigned(UInt32.self) }

    mutating func double() throws(ShapeError) -> Double { Double(bitPattern: try unsigned(UInt64.self)) }

    /// The next `T.bitWidth / 8` bytes as an unsigned integer in the geometry's byte order.
    private mutating func unsigned<T: FixedWidthInteger & UnsignedInteger>(_: T.Type) throws(ShapeError) -> T {
        let size = T.bitWidth / 8
        guard bytes.count - offset >= size else { throw .invalidWKB("ends at byte \(offset), inside a geometry") }
        var value: T = 0
        for index in 0..<size {
            value |= T(bytes[offset + index]) << (bigEndian ? 8 * (size - 1 - index) : 8 * index)
        }
        offset += size
        return value
    }

    /// A geometry's byte order and type: its kind and its ordinates per position (2, 3 or 4).
    mutating func header() throws(ShapeError) -> (ShapeKind, Int) {
        let at = offset
        switch try byte() {
        case 0: bigEndian = true
        case 1: bigEndian = false
        case let other: throw .invalidWKB("byte order \(other) at byte \(at), expected 0 or 1")
        }
        var type = try uint32()
        var dimensions = 2
        // EWKB (PostGIS): Z, M and SRID flags in the high bits.
        if type & 0x8000_0000 != 0 { dimensions += 1 }
        if type & 0x4000_0000 != 0 { dimensions += 1 }
        if type & 0x2000_0000 != 0 {
            let srid = try uint32()
            guard srid == 4326 else { throw .invalidWKB("SRID \(srid), expected 4326 (WGS84 degrees)") }
        }
        type &= 0x0FFF_FFFF
        // ISO: 1000 Z, 2000 M, 3000 ZM.
        switch type / 1000 {
        case 0: break
        case 1, 2: dimensions += 1
        case 3: dimensions += 2
        default: throw .invalidWKB("geometry type \(type) at byte \(at + 1)")
        }
        guard dimensions <= 4, let kind = ShapeKind(rawValue: type % 1000) else {
            throw .invalidWKB("geometry type \(type) at byte \(at + 1) (expected Point, LineString, Polygon or their Multi forms)")
        }
        return (kind, dimensions)
    }

    mutating func position(dimensions: Int, into parts: inout ShapeParts) throws(ShapeError) {
        let longitude = try double(), latitude = try double()
        for _ in 2..<dimensions { _ = try double() }
        parts.append(longitude: longitude, latitude: latitude)
    }

    mutating func ring(dimensions: Int, into parts: inout ShapeParts) throws(ShapeError) {
        let count = Int(try uint32())
        try checkCount(count, unit: 8 * dimensions, "positions")
        for _ in 0..<count { try position(dimensions: dimensions, into: &parts) }
        parts.endRing()
    }

    mutating func polygonBody(dimensions: Int, into parts: inout ShapeParts) throws(ShapeError) {
        let rings = Int(try uint32())
        try checkCount(rings, unit: 4, "rings")
        for _ in 0..<rings { try ring(dimensions: dimensions, into: &parts) }
        parts.endPolygon()
    }

    /// A member of a Multi geometry: its own header, which must name `expected`.
    mutating func member(_ expected: ShapeKind, into parts: inout ShapeParts) throws(ShapeError) {
        let at = offset
        let (kind, dimensions) = try header()
        guard kind == expected else { throw .invalidWKB("a \(kind.name) at byte \(at) inside a Multi\(expected.name)") }
        try body(of: kind, dimensions: dimensions, into: &parts)
    }

    mutating func body(of kind: ShapeKind, dimensions: Int, into parts: inout ShapeParts) throws(ShapeError) {
        switch kind {
        case .point:
            try position(dimensions: dimensions, into: &parts)
            parts.endRing()
            // WKB writes POINT EMPTY as NaN ordinates.
            if parts.positions.suffix(2).allSatisfy(\.isNaN) { throw .empty(kind: .point) }
        case .lineString:
            try ring(dimensions: dimensions, into: &parts)
        case .polygon:
            try polygonBody(dimensions: dimensions, into: &parts)
        case .multiPoint, .multiLineString, .multiPolygon:
            let count = Int(try uint32())
            try checkCount(count, unit: 9, "members")
            let member: ShapeKind = kind == .multiPoint ? .point : (kind == .multiLineString ? .lineString : .polygon)
            for _ in 0..<count { try self.member(member, into: &parts) }
        }
    }
}
