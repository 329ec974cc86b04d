/// A geohash as two grid indices at one precision: a row counted from the south pole and a column counted
/// from longitude -180.
struct _GeohashGrid: Hashable, Sendable {
    /// Row from the south, in `0 ..< 2^latitudeBits`.
    var row: UInt64
    /// Column from longitude -180, in `0 ..< 2^longitudeBits`.
    var column: UInt64
    /// Characters, in 1...12.
    let precision: Int

    var latitudeBits: Int { Self.latitudeBits(precision) }
    var longitudeBits: Int { Self.longitudeBits(precision) }
    var rowCount: UInt64 { 1 << UInt64(latitudeBits) }
    var columnCount: UInt64 { 1 << UInt64(longitudeBits) }

    static func latitudeBits(_ precision: Int) -> Int { precision * 5 / 2 }
    static func longitudeBits(_ precision: Int) -> Int { precision * 5 - precision * 5 / 2 }

    init(row: UInt64, column: UInt64, precision: Int) {
        self.row = row
        self.column = column
        self.precision = precision
    }

    /// The cell containing `coordinate`; the caller checks `precision`.
    init(_ coordinate: Coordinate, precision: Int) {
        self.precision = precision
        row = Self.index(of: coordinate.latitude, lower: -90, upper: 90, bits: Self.latitudeBits(precision))
        column = Self.index(of: coordinate.longitude, lower: -180, upper: 180, bits: Self.longitudeBits(precision))
    }

    /// Parses a geohash, either case.
    init(hash: String) throws(GeohashError) {
        var bits: UInt64 = 0
        var count = 0
        for character in hash {
            count += 1
            guard count <= Geohash.maxPrecision else { throw .tooLong(length: hash.count) }
            // A Character of one UTF-8 byte is ASCII; anything longer is a multi-byte or combined character.
            guard character.utf8.count == 1, let byte = character.utf8.first,
                  let value = Self.characterValues[Int(byte)] else {
                throw .invalidCharacter(character, position: count)
            }
            bits = bits << 5 | UInt64(value)
        }
        guard count > 0 else { throw .empty }
        self.init(interleaved: bits, precision: count)
    }

    /// Splits `5 * precision` interleaved bits (longitude first, most significant first) into row and column.
    init(interleaved bits: UInt64, precision: Int) {
        let total = precision * 5
        var row: UInt64 = 0
        var column: UInt64 = 0
        for k in 0..<total {
            let bit = bits >> UInt64(total - 1 - k) & 1
            if k % 2 == 0 { column = column << 1 | bit } else { row = row << 1 | bit }
        }
        self.init(row: row, column: column, precision: precision)
    }

    /// The `5 * precision` bits of the hash, longitude first; sorting these sorts the hashes.
    var interleaved: UInt64 {
        let total = precision * 5
        let latitudeBits = latitudeBits
        let longitudeBits = longitudeBits
        var bits: UInt64 = 0
        for k in 0..<total {
            let bit = k % 2 == 0
                ? column >> UInt64(longitudeBits - 1 - k / 2) & 1
                : row >> UInt64(latitudeBits - 1 - k / 2) & 1
            bits = bits << 1 | bit
        }
        return bits
    }

    /// The lower-case geohash text.
    var hash: String { Self.text(interleaved: interleaved, precision: precision) }

    static func text(interleaved bits: UInt64, precision: Int) -> String {
        String(unsafeUninitializedCapacity: precision) { buffer in
            for i in 0..<precision {
                let value = Int(bits >> UInt64(5 * (precision - 1 - i)) & 31)
                buffer[i] = alphabet[value]
            }
            return precision
        }
    }

    /// Degrees of latitude spanned by one row: 180 / 2^bits, an exact power-of-two scaling.
    var rowHeight: Double { 180.0 / Double(rowCount) }
    /// Degrees of longitude spanned by one column: 360 / 2^bits, an exact power-of-two scaling.
    var columnWidth: Double { 360.0 / Double(columnCount) }

    /// The cell's edges and centre. All values are exact: the index times a power-of-two width needs
    /// at most 36 significant bits, and adding ±90 or ±180 keeps it within a double's 53.
    var cell: GeohashCell {
        let south = -90 + Double(row) * rowHeight
        let west = -180 + Double(column) * columnWidth
        let north = -90 + Double(row + 1) * rowHeight
        let east = -180 + Double(column + 1) * columnWidth
        return GeohashCell(hash: hash, south: south, west: west, north: north, east: east)
    }

    /// The index, with `bits` bits, of the half-open interval of `lower...upper` holding `value`
    /// (the last interval is closed). Bisection with exact midpoints, so boundaries never round the wrong way.
    static func index(of value: Double, lower: Double, upper: Double, bits: Int) -> UInt64 {
        var low = lower
        var high = upper
        var index: UInt64 = 0
        for _ in 0..<bits {
            // Exact: low and high are multiples of 2^-27 with magnitude at most 180 (36 significant bits at most).
            let middle = (low + high) * 0.5
            if value >= middle {
                index = index << 1 | 1
                low = middle
            } else {
                index <<= 1
                high = middle
            }
        }
        return index
    }

    /// The 32 characters in value order; also in ASCII order, so string order is bit order.
    static let alphabet: [UInt8] = Array("0123456789bcdefghjkmnpqrstuvwxyz".utf8)

    /// Value of each ASCII byte in the alphabet, upper case included; nil for bytes outside it.
    static let characterValues: [UInt8?] = {
        var table = [UInt8?](repeating: nil, count: 256)
        for (value, byte) in alphabet.enumerated() {
            table[Int(byte)] = UInt8(value)
            if byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") {
                table[Int(byte - 32)] = UInt8(value)
            }
        }
        return table
    }()
}
