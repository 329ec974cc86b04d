/// The few protocol-buffer wire rules a vector tile needs, appended to a byte buffer: varints, zig-zag, field keys,
/// length-delimited fields and little-endian fixed-width numbers.
///
/// Hand-written rather than swift-protobuf: an encoder of one fixed schema (`vector_tile.proto`, four messages) needs
/// about sixty lines of wire format, while the generated code and its runtime would be a new package dependency for
/// every user of CairnIO, and its message objects an allocation per feature where this writes straight into one
/// buffer (https://protobuf.dev/programming-guides/encoding/ is the reference for each rule below).
enum ProtobufWire {
    /// Wire type 0: a varint (uint32, uint64, int64, sint64 after zig-zag, bool, enum).
    static let varint: UInt32 = 0
    /// Wire type 1: eight little-endian bytes (double).
    static let fixed64: UInt32 = 1
    /// Wire type 2: a varint length, then that many bytes (string, message, packed repeated).
    static let lengthDelimited: UInt32 = 2
    /// Wire type 5: four little-endian bytes (float).
    static let fixed32: UInt32 = 5

    /// Appends `value` as a base-128 varint: seven bits per byte, least significant first, the high bit set on all
    /// bytes but the last.
    /// - Complexity: O(1) (at most ten bytes).
    @inline(__always)
    static func appendVarint(_ value: UInt64, to out: inout [UInt8]) {
        var v = value
        while v >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        out.append(UInt8(truncatingIfNeeded: v))
    }

    /// The number of bytes `appendVarint` writes for `value`.
    /// - Complexity: O(1).
    @inline(__always)
    static func varintSize(_ value: UInt64) -> Int {
        // One byte per started group of seven significant bits; zero still takes one byte.
        let bits = 64 - value.leadingZeroBitCount
        return bits == 0 ? 1 : (bits + 6) / 7
    }

    /// Zig-zag: 0, -1, 1, -2, 2… map to 0, 1, 2, 3, 4…, so that small negative numbers stay short varints (sint64).
    /// - Complexity: O(1).
    @inline(__always)
    static func zigZag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value << 1) ^ (value >> 63))
    }

    /// Zig-zag on 32 bits, as geometry parameters use it.
    /// - Complexity: O(1).
    @inline(__always)
    static func zigZag(_ value: Int32) -> UInt32 {
        UInt32(bitPattern: (value << 1) ^ (value >> 31))
    }

    /// Appends a field key: `(field << 3) | wireType`, as a varint.
    /// - Complexity: O(1).
    @inline(__always)
    static func appendKey(field: UInt32, wireType: UInt32, to out: inout [UInt8]) {
        appendVarint(UInt64(field << 3 | wireType), to: &out)
    }

    /// Appends a length-delimited field holding `bytes` (a string's UTF-8, or an encoded message).
    /// - Complexity: O(n) in the bytes.
    static func appendBytesField(_ field: UInt32, _ bytes: some Collection<UInt8>, to out: inout [UInt8]) {
        appendKey(field: field, wireType: lengthDelimited, to: &out)
        appendVarint(UInt64(bytes.count), to: &out)
        out.append(contentsOf: bytes)
    }

    /// Appends a packed repeated field of 32-bit varints (nothing when `values` is empty, as protobuf writes it).
    /// - Complexity: O(n) in the values.
    static func appendPackedField(_ field: UInt32, _ values: [UInt32], to out: inout [UInt8]) {
        guard !values.isEmpty else { return }
        appendKey(field: field, wireType: lengthDelimited, to: &out)
        appendVarint(UInt64(packedSize(values)), to: &out)
        for v in values { appendVarint(UInt64(v), to: &out) }
    }

    /// The payload bytes of a packed field of `values` (without its key and length).
    /// - Complexity: O(n).
    static func packedSize(_ values: [UInt32]) -> Int {
        var size = 0
        for v in values { size += varintSize(UInt64(v)) }
        return size
    }

    /// The bytes a length-delimited field of `payload` bytes takes, key (fields below 16: one byte) and length included.
    /// - Complexity: O(1).
    static func lengthDelimitedSize(payload: Int) -> Int {
        1 + varintSize(UInt64(payload)) + payload
    }

    /// Appends four little-endian bytes.
    /// - Complexity: O(1).
    static func appendFixed32(_ value: UInt32, to out: inout [UInt8]) {
        for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    /// Appends eight little-endian bytes.
    /// - Complexity: O(1).
    static func appendFixed64(_ value: UInt64, to out: inout [UInt8]) {
        for shift in stride(from: 0, to: 64, by: 8) { out.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }
}
