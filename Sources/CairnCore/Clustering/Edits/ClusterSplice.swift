import Foundation

/// How an edit renumbers one of a `ClusterHierarchy`'s flat tables: a few rows are deleted and a few inserted, and
/// every other row keeps its order, shifted by the rows inserted and deleted before it.
///
/// The kept rows form a few long segments, each shifted by one amount: the table is rewritten in place by moving
/// those segments (memmove), and stored row numbers are renumbered by a shift looked up per block of 256 rows (a
/// binary search over the segments only in the few blocks a change falls in).
struct ClusterSplice {
    /// One change at an old row: `inserted` new rows go before old row `position`, then the `deleted` old rows
    /// from `position` on are dropped.
    struct Change {
        var position: Int
        var inserted: Int
        var deleted: Int
    }

    /// A run of kept old rows and how far it moves.
    struct Segment {
        var start: Int
        var end: Int
        var shift: Int
    }

    /// Rows before the edit.
    let oldCount: Int
    /// Rows after it.
    private(set) var newCount: Int
    /// Kept rows, in order.
    private(set) var segments: [Segment] = []
    /// The new row of the first row each change inserts, in the order of the changes given.
    private(set) var insertedAt: [Int] = []
    /// Per block of `1 << blockShift` old rows: the shift of every row in it, or `mixedBlock` when a change falls in it.
    private var blockShift: [Int32] = []

    private static let blockBits = 8
    private static let mixedBlock = Int32.min

    /// Plans the changes, given in row order (changes at one position: insertions before the deletion).
    /// - Complexity: O(k + b) for k changes and b = oldCount / 256 blocks.
    init(oldCount: Int, changes: [Change]) {
        self.oldCount = oldCount
        var cursor = 0, shift = 0
        insertedAt.reserveCapacity(changes.count)
        changeInserted.reserveCapacity(changes.count)
        for change in changes {
            precondition(change.position >= cursor && change.position + change.deleted <= oldCount, "splice changes out of order")
            if change.position > cursor { segments.append(Segment(start: cursor, end: change.position, shift: shift)) }
            insertedAt.append(change.position + shift)
            changeInserted.append(change.inserted)
            shift += change.inserted - change.deleted
            cursor = change.position + change.deleted
        }
        if oldCount > cursor { segments.append(Segment(start: cursor, end: oldCount, shift: shift)) }
        newCount = oldCount + shift
        let block = 1 << Self.blockBits
        blockShift = [Int32](repeating: Self.mixedBlock, count: (oldCount + block - 1) >> Self.blockBits)
        for s in segments {
            let first = (s.start + block - 1) >> Self.blockBits, last = s.end >> Self.blockBits
            if first < last { for b in first..<last { blockShift[b] = Int32(s.shift) } }
        }
        // The last block may be partial: whole when the last segment covers it to the end.
        if let s = segments.last, s.end == oldCount, !blockShift.isEmpty {
            let b = blockShift.count - 1
            if s.start <= b << Self.blockBits { blockShift[b] = Int32(s.shift) }
        }
    }

    /// Whether the edit leaves every row where it was.
    var isIdentity: Bool { newCount == oldCount && segments.allSatisfy { $0.shift == 0 } }

    /// The new row of kept old row `row` (for a deleted row: where the next kept row goes, so a stale copy of a
    /// deleted row's number stays a row number, never a sentinel).
    /// - Complexity: O(1), O(log k) in a block a change falls in.
    @inline(__always)
    func newRow(_ row: Int) -> Int {
        let s = blockShift[row >> Self.blockBits]
        return s != Self.mixedBlock ? row + Int(s) : max(0, row + shiftNear(row))
    }

    /// The shift of the segment holding `row`, or of the first segment after it.
    private func shiftNear(_ row: Int) -> Int {
        var lo = 0, hi = segments.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if segments[mid].end <= row { lo = mid + 1 } else { hi = mid }
        }
        return lo < segments.count ? segments[lo].shift : newCount - oldCount
    }

    /// Renumbers row numbers stored in `values` in place; values at or past `oldCount` (sentinels) are kept.
    /// - Complexity: O(v) for v values.
    func renumber(_ values: inout [UInt32]) {
        // Rows before the first change keep their numbers: only values in [low, oldCount) change.
        let low = UInt32(truncatingIfNeeded: segments.first.map { $0.start == 0 && $0.shift == 0 ? $0.end : 0 } ?? 0)
        let span = UInt32(truncatingIfNeeded: oldCount) &- low
        let shifts = blockShift
        values.withUnsafeMutableBufferPointer { p in
            shifts.withUnsafeBufferPointer { table in
                for i in p.indices {
                    let v = p[i]
                    guard v &- low < span else { continue }
                    let s = table[Int(v &>> UInt32(Self.blockBits))]
                    // A kept row's new number is never negative: the wrapping add is exact.
                    p[i] = s != Self.mixedBlock ? v &+ UInt32(bitPattern: s) : UInt32(max(0, Int(v) + shiftNear(Int(v))))
                }
            }
        }
    }

    /// Rewrites `table` (one element per row) in place to the new row order: kept rows move, deleted rows go,
    /// inserted rows hold `filler` (the caller writes them).
    /// - Complexity: O(e) element moves for the e elements after the first change.
    func apply<T: BitwiseCopyable>(to table: inout [T], filler: T) {
        precondition(table.count == oldCount, "splice applied to a table of another size")
        let growth = newCount - oldCount
        if growth > 0 {
            // Tables are built to their exact size: leave room for the next inserts (about 1.5 %), so they do not
            // each copy the table.
            if table.capacity < table.count + growth { table.reserveCapacity(table.count + growth + table.count / 64 + 16) }
            table.append(contentsOf: repeatElement(filler, count: growth))
        }
        table.withUnsafeMutableBufferPointer { p in
            guard let base = p.baseAddress else { return }
            func move(_ s: Segment) {
                Self.moveElements(base + s.start + s.shift, from: base + s.start, count: s.end - s.start)
            }
            // Segments moving up first, from the last (each lands on rows already moved or vacated), then those
            // moving down, from the first.
            for s in segments.reversed() where s.shift > 0 { move(s) }
            for s in segments where s.shift < 0 { move(s) }
            for (k, at) in insertedAt.enumerated() {
                let count = changeInserted[k]
                for i in at..<(at + count) { base[i] = filler }
            }
        }
        if growth < 0 { table.removeLast(-growth) }
    }

    /// Rows inserted per change (kept for `apply`).
    private var changeInserted: [Int] = []

    /// Copies `count` elements that may overlap their destination.
    @inline(__always)
    private static func moveElements<T: BitwiseCopyable>(_ to: UnsafeMutablePointer<T>, from: UnsafeMutablePointer<T>, count: Int) {
        guard count > 0, to != from else { return }
        // C memmove(dest, src, bytes): copies as if through a temporary buffer, so the regions may overlap.
        _ = memmove(to, from, count * MemoryLayout<T>.stride)
    }
}
