import CairnIO

/// A byte written by a background thread and never read: keeps look-ahead reads observable.
final class ByteSink: @unchecked Sendable {
    private var value: UInt8 = 0
    func store(_ byte: UInt8) { value = byte }
}
