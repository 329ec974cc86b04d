/// A sink that keeps what is written in memory.
public final class MemorySink: ByteSink {
    /// Everything written so far, in order.
    public private(set) var bytes: [UInt8] = []

    /// An empty sink.
    /// - Complexity: O(1).
    public init() {}

    /// Appends `bytes`.
    /// - Complexity: amortised O(n).
    public func write(bytes: UnsafeRawBufferPointer) {
        self.bytes.append(contentsOf: bytes)
    }

    /// What was written, as UTF-8 text.
    /// - Complexity: O(n).
    public var text: String { String(decoding: bytes, as: UTF8.self) }
}
