import CairnIO

/// A record skipped for being longer than `CheckInBatchInput.maxRecordBytes`.
struct CheckInOverlongRecord {
    /// Its first bytes (up to `CheckInBatchInput.headBytes`).
    var head: [UInt8]
    /// Its length in bytes, line feed included.
    var bytes = 0
    /// Line feeds in it (for line numbers), the one ending it included.
    var lineFeeds = 0

    /// What was wrong with it.
    func problem(limit: Int) -> String {
        "a record of \(bytes) bytes, longer than \(limit), skipped"
    }
}
