/// One property value of a vector-tile feature: the seven value types of MVT 2.1's `Tile.Value`.
///
/// Numbers from Cairn's data take one rule, `number(_:)`: a whole number that an `Int64` holds exactly is written as
/// `uint` (zero and above) or `sint` (below zero, zig-zag, so `-1` is one byte where `int` takes ten), any other
/// number as `double`. Readers (MapLibre, Mapbox GL, `mapbox_vector_tile`) hand all three back as numbers, so `10`
/// reads as `10` and `12.5` as `12.5` with no change of value; `float` is never chosen, since it would round. `int`
/// and `float` are still here for callers that need those exact wire types.
///
/// Two values are equal when they encode to the same bytes: the same case, and for `double` and `float` the same
/// bit pattern (so `0.0` and `-0.0` stay two values, and a NaN equals itself). A layer keeps each distinct value once.
public enum VectorTileValue: Hashable, Sendable {
    /// Text (`string_value`, field 1).
    case string(String)
    /// A 32-bit float (`float_value`, field 2).
    case float(Float)
    /// A 64-bit float (`double_value`, field 3).
    case double(Double)
    /// A signed integer as a plain varint (`int_value`, field 4): ten bytes when negative.
    case int(Int64)
    /// An unsigned integer (`uint_value`, field 5).
    case uint(UInt64)
    /// A signed integer, zig-zag encoded (`sint_value`, field 6).
    case sint(Int64)
    /// A boolean (`bool_value`, field 7).
    case bool(Bool)

    /// A number by Cairn's rule: a whole `Int64` as `uint` (>= 0) or `sint` (< 0); anything else (fractions, `-0.0`,
    /// magnitudes of 2^63 and beyond, NaN and infinities) as `double`, so the value read back is the value given.
    /// - Complexity: O(1).
    public static func number(_ value: Double) -> VectorTileValue {
        // Int64(exactly:) is nil for fractions, NaN, infinities and out-of-range magnitudes; -0.0 would read back as 0.
        guard let whole = Int64(exactly: value), !(value == 0 && value.sign == .minus) else { return .double(value) }
        return whole >= 0 ? .uint(UInt64(whole)) : .sint(whole)
    }

    public static func == (a: VectorTileValue, b: VectorTileValue) -> Bool {
        switch (a, b) {
        case (.string(let x), .string(let y)): x == y
        case (.float(let x), .float(let y)): x.bitPattern == y.bitPattern
        case (.double(let x), .double(let y)): x.bitPattern == y.bitPattern
        case (.int(let x), .int(let y)): x == y
        case (.uint(let x), .uint(let y)): x == y
        case (.sint(let x), .sint(let y)): x == y
        case (.bool(let x), .bool(let y)): x == y
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .string(let s): hasher.combine(1); hasher.combine(s)
        case .float(let f): hasher.combine(2); hasher.combine(f.bitPattern)
        case .double(let d): hasher.combine(3); hasher.combine(d.bitPattern)
        case .int(let i): hasher.combine(4); hasher.combine(i)
        case .uint(let u): hasher.combine(5); hasher.combine(u)
        case .sint(let i): hasher.combine(6); hasher.combine(i)
        case .bool(let b): hasher.combine(7); hasher.combine(b)
        }
    }

    /// Appends the `Tile.Value` message body: exactly one field, as MVT 2.1 (section 4.1) requires.
    /// - Complexity: O(n) in a string's length, else O(1).
    func appendMessage(to out: inout [UInt8]) {
        switch self {
        case .string(let s):
            var s = s
            s.withUTF8 { ProtobufWire.appendBytesField(1, $0, to: &out) }
        case .float(let f):
            ProtobufWire.appendKey(field: 2, wireType: ProtobufWire.fixed32, to: &out)
            ProtobufWire.appendFixed32(f.bitPattern, to: &out)
        case .double(let d):
            ProtobufWire.appendKey(field: 3, wireType: ProtobufWire.fixed64, to: &out)
            ProtobufWire.appendFixed64(d.bitPattern, to: &out)
        case .int(let i):
            ProtobufWire.appendKey(field: 4, wireType: ProtobufWire.varint, to: &out)
            ProtobufWire.appendVarint(UInt64(bitPattern: i), to: &out)
        case .uint(let u):
            ProtobufWire.appendKey(field: 5, wireType: ProtobufWire.varint, to: &out)
            ProtobufWire.appendVarint(u, to: &out)
        case .sint(let i):
            ProtobufWire.appendKey(field: 6, wireType: ProtobufWire.varint, to: &out)
            ProtobufWire.appendVarint(ProtobufWire.zigZag(i), to: &out)
        case .bool(let b):
            ProtobufWire.appendKey(field: 7, wireType: ProtobufWire.varint, to: &out)
            out.append(b ? 1 : 0)
        }
    }
}
