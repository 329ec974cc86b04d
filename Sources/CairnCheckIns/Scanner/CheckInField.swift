
/// One field of a record: its bytes (in the input, or in the scanner's arena when it was quoted and had to be
/// unescaped), valid until the next batch.
struct CheckInField {
    var base: UnsafePointer<UInt8>?
    var count: Int

    static var empty: CheckInField { CheckInField(base: nil, count: 0) }

    /// The bytes as a raw buffer.
    @inline(__always)
    var raw: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    /// The bytes as a typed buffer.
    @inline(__always)
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    /// The bytes as a string (slow paths and messages only).
    var text: String { String(decoding: bytes, as: UTF8.self) }
}
