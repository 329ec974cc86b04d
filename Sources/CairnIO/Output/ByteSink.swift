/// Where the output encoders write their bytes: standard output or a file (`OutputSink`), memory (`MemorySink`,
/// as an HTTP response body would), or anything else that takes bytes in order.
public protocol ByteSink: AnyObject {
    /// Appends `bytes` after everything written before.
    /// - Complexity: amortised O(n) in the number of bytes.
    func write(bytes: UnsafeRawBufferPointer)
}

extension ByteSink {
    /// Appends the UTF-8 bytes of `text`.
    /// - Complexity: amortised O(n) in the text's UTF-8 length.
    public func write(_ text: String) {
        var text = text
        text.withUTF8 { write(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Appends `bytes`.
    /// - Complexity: amortised O(n).
    public func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { write(bytes: $0) }
    }
}
