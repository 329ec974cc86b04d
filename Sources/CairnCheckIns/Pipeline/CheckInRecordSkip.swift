import CairnIO

/// Finds the end of an overlong record (line) across buffers: its first line feed, counting bytes on the way.
struct CheckInRecordSkip {
    private(set) var done = false
    private(set) var record: CheckInOverlongRecord

    init(head: UnsafeBufferPointer<UInt8>) {
        record = CheckInOverlongRecord(head: Array(head))
    }

    /// Scans the next piece of the record; returns the bytes of `bytes` that belong to it (all of them
    /// unless its end is inside).
    mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        if let i = bytes.firstIndex(of: 0x0A) {
            record.lineFeeds += 1
            done = true
            record.bytes += i + 1
            return i + 1
        }
        record.bytes += bytes.count
        return bytes.count
    }
}
