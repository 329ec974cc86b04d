import CairnCore

/// One piece of a batch and everything computed for its rows; reused from batch to batch.
final class CheckInPiece: @unchecked Sendable {
    var scanner = CheckInCSVScanner()
    var json = CheckInJSONLineParser()
    var scratch: [Int] = []
    var ids: [CheckInField] = []
    var users: [CheckInField] = []
    var eventFields: [CheckInField] = []
    var userHashes: [UInt64] = []
    /// Per shard, the rows (in order) that shard must settle: valid rows with an event, or with a place when
    /// visits are counted.
    var shardRows: [[Int32]] = []
    var results: [CheckInResult] = []
    /// Malformed rows: row index in the piece, line within the piece (0-based), detail.
    var malformed: [(row: Int, line: Int, message: String)] = []
    /// Line feeds consumed by the piece.
    var lines = 0
    /// A sum of values read only to warm the cache (kept so the reads are not optimised away).
    var warm = 0.0
    /// The same for the output's place texts.
    var warmText: UInt8 = 0
    var output: [UInt8] = []
    var counts = [Int](repeating: 0, count: CheckInVerdictIndex.names.count)

    deinit {
        scanner.deallocate()
        json.deallocate()
    }

    func reset(bytes: Int) {
        scanner.reset(forBufferOf: bytes)
        json.reset(forBufferOf: bytes)
        ids.removeAll(keepingCapacity: true)
        users.removeAll(keepingCapacity: true)
        eventFields.removeAll(keepingCapacity: true)
        userHashes.removeAll(keepingCapacity: true)
        for s in shardRows.indices { shardRows[s].removeAll(keepingCapacity: true) }
        results.removeAll(keepingCapacity: true)
        malformed.removeAll(keepingCapacity: true)
        lines = 0
    }
}
