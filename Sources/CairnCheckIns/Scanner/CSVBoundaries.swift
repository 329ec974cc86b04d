#if canImport(Glibc)
import Glibc
#endif

/// Record boundaries in check-in CSV bytes: every line feed ends a record (see `CheckInCSVScanner`: a quoted
/// field never spans lines), so the batches, the pieces and the scanner always agree on where records end.
enum CSVBoundaries {
    /// The offset just after the last line feed, or nil when there is none.
    static func lastRecordEnd(_ buffer: UnsafePointer<UInt8>, count: Int) -> Int? {
        var i = count - 1
        while i >= 0, buffer[i] != 0x0A { i -= 1 }
        return i >= 0 ? i + 1 : nil
    }

    /// Splits `[0, count)` into about `pieces` ranges that each start at a record boundary.
    static func split(_ buffer: UnsafePointer<UInt8>, count: Int, pieces: Int) -> [Range<Int>] {
        guard count > 0 else { return [] }
        var cuts = [0]
        for k in 1..<max(1, pieces) {
            let target = max(cuts[cuts.count - 1], count * k / pieces)
            guard target < count,
                  let found = memchr(buffer + target, 0x0A, count - target) else { break }
            let cut = UnsafeRawPointer(found) - UnsafeRawPointer(buffer) + 1
            if cut < count, cut > cuts[cuts.count - 1] { cuts.append(cut) }
        }
        cuts.append(count)
        return (0..<cuts.count - 1).map { cuts[$0] ..< cuts[$0 + 1] }
    }
}
