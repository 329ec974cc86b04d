/// A set of rowids as one bit each, grown to the largest rowid inserted.
struct RowidBits {
    private var words: [UInt64] = []

    /// Whether `rowid` is in the set.
    func contains(_ rowid: Int64) -> Bool {
        let word = Int(rowid >> 6)
        return rowid >= 0 && word < words.count && words[word] & (1 << UInt64(rowid & 63)) != 0
    }

    /// Adds `rowid`; true when it was not in the set. A negative rowid (never given by SQLite) is not kept.
    mutating func insert(_ rowid: Int64) -> Bool {
        guard rowid >= 0 else { return true }
        let word = Int(rowid >> 6)
        if word >= words.count { words += repeatElement(0, count: word + 1 - words.count) }
        let bit: UInt64 = 1 << UInt64(rowid & 63)
        defer { words[word] |= bit }
        return words[word] & bit == 0
    }

    /// Empties the set, keeping its memory.
    mutating func removeAll() {
        for i in words.indices { words[i] = 0 }
    }
}
