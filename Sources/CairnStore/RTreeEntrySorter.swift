import CairnCore

/// One entry of the R*Tree bulk load: a rowid, its point's box rounded outwards to `Float`, and its sort word.
/// 32 bytes, written to the scratch file as they are (read back by the same process only).
struct RTreeEntry {
    /// The Hilbert key (32 bits) above the entry's arrival number (32 bits): a plain integer order that sorts by
    /// key, ties by arrival, which is rowid order.
    var order: UInt64
    var rowid: Int64
    var minLon: Float, maxLon: Float, minLat: Float, maxLat: Float
}

/// Sorts the bulk load's entries by `RTreeEntry.order` while holding a bounded number of them: entries arrive in
/// chunks of `RTreeBulkLoad.Limits.chunkEntries`; a load that fits one chunk is sorted in memory, a larger one is
/// written to a `ScratchFile` as sorted runs, which are merged (in several passes past `mergeFanIn` runs) as the
/// tree is built. An external merge sort (Knuth, TAOCP vol. 3, 5.4.1).
///
/// Why: holding every entry cost 32 bytes a row at commit (160 MB at 5,000,000 rows); the chunk and the merge
/// buffers are a few megabytes whatever the row count, and the scratch file's I/O is sequential.
struct RTreeEntrySorter {
    private let limits: RTreeBulkLoad.Limits
    private let storePath: String
    /// The chunk being filled: sort words whose low 32 bits are arrival numbers, and by arrival within the chunk,
    /// rowids and boxes. Four arrays and one integer sort: sorting 32-byte records instead cost more.
    private var order: [UInt64] = []
    private var rowids: [Int64] = []
    private var lons: [(Float, Float)] = []
    private var lats: [(Float, Float)] = []
    /// Arrival number of the chunk's first entry.
    private var chunkStart = 0
    private var scratch: ScratchFile?
    /// True when no scratch file could be created: then every entry stays in memory, as before.
    private var inMemoryOnly = false
    /// The sorted runs in the scratch file, as byte ranges.
    private var runs: [Range<Int>] = []
    /// Entries appended so far.
    private(set) var count = 0
    /// The most entries held in memory at once (chunk, merge buffers and write buffer), for tests.
    private(set) var peakEntriesInMemory = 0
    /// Merge passes before the last (which feeds the tree).
    private(set) var extraMergePasses = 0
    /// Runs written in all.
    private(set) var runCount = 0

    /// A sorter for about `expectedCount` entries.
    init(limits: RTreeBulkLoad.Limits, storePath: String, expectedCount: Int) {
        self.limits = limits
        self.storePath = storePath
        let reserved = min(expectedCount, limits.chunkEntries)
        order.reserveCapacity(reserved)
        rowids.reserveCapacity(reserved)
        lons.reserveCapacity(reserved)
        lats.reserveCapacity(reserved)
    }

    /// Adds the point of row `rowid`.
    /// - Throws: `StoreError.io` when a full chunk cannot be written to the scratch file.
    /// - Complexity: O(1) amortized; O(c log c) for a chunk of c when it fills.
    mutating func append(rowid: Int64, longitude: Double, latitude: Double) throws {
        if rowids.count >= limits.chunkEntries, !inMemoryOnly { try spillChunk() }
        let arrival = UInt64(count)
        order.append(UInt64(RTreeBulkLoad.hilbertIndex(longitude: longitude, latitude: latitude)) << 32 | arrival)
        rowids.append(rowid)
        lons.append((RTreeBulkLoad.roundedDown(longitude), RTreeBulkLoad.roundedUp(longitude)))
        lats.append((RTreeBulkLoad.roundedDown(latitude), RTreeBulkLoad.roundedUp(latitude)))
        count += 1
        peakEntriesInMemory = max(peakEntriesInMemory, rowids.count)
    }

    /// Calls `body` with every entry in sorted order; the sorter is spent afterwards.
    /// - Throws: what `body` throws, or `ScratchFile.Failure` when the scratch file fails (`RTreeBulkLoad` names the store).
    /// - Complexity: O(N log N); past one chunk, about 32 bytes a row written and read per merge pass.
    mutating func forEachSorted(_ body: (RTreeEntry) throws -> Void) throws {
        guard !runs.isEmpty, let scratch else {
            order.sort()
            for sortWord in order {
                let k = Int(truncatingIfNeeded: sortWord & 0xFFFF_FFFF) - chunkStart
                try body(RTreeEntry(order: sortWord, rowid: rowids[k], minLon: lons[k].0, maxLon: lons[k].1,
                                    minLat: lats[k].0, maxLat: lats[k].1))
            }
            return
        }
        if !rowids.isEmpty { try spillChunk() }
        // The chunk's memory goes back before the merge takes its buffers.
        order = []; rowids = []; lons = []; lats = []
        let fanIn = max(2, limits.mergeFanIn)
        while runs.count > fanIn {
            var merged: [Range<Int>] = []
            for start in stride(from: 0, to: runs.count, by: fanIn) {
                var output = RunWriter(scratch: scratch, capacity: limits.bufferEntries)
                try merge(runs[start..<min(start + fanIn, runs.count)], from: scratch, extraBuffered: output.capacity) {
                    try output.append($0)
                }
                merged.append(try output.finish())
            }
            runs = merged
            extraMergePasses += 1
        }
        try merge(runs[...], from: scratch, extraBuffered: 0, body)
    }

    /// Sorts the chunk and writes it to the scratch file as one run, or, when no scratch file can be created,
    /// keeps it and every later entry in memory.
    private mutating func spillChunk() throws {
        if scratch == nil { scratch = ScratchFile(nextTo: storePath) }
        guard let scratch else {
            inMemoryOnly = true
            return
        }
        order.sort()
        var output = RunWriter(scratch: scratch, capacity: limits.bufferEntries)
        peakEntriesInMemory = max(peakEntriesInMemory, rowids.count + output.capacity)
        for sortWord in order {
            let k = Int(truncatingIfNeeded: sortWord & 0xFFFF_FFFF) - chunkStart
            try output.append(RTreeEntry(order: sortWord, rowid: rowids[k], minLon: lons[k].0, maxLon: lons[k].1,
                                         minLat: lats[k].0, maxLat: lats[k].1))
        }
        runs.append(try output.finish())
        runCount += 1
        chunkStart += rowids.count
        order.removeAll(keepingCapacity: true)
        rowids.removeAll(keepingCapacity: true)
        lons.removeAll(keepingCapacity: true)
        lats.removeAll(keepingCapacity: true)
    }

    /// Merges sorted runs into one sorted sequence for `body`: a binary heap of the runs by their next entry, each
    /// run read through a buffer of `bufferEntries`.
    private mutating func merge(_ group: ArraySlice<Range<Int>>, from scratch: ScratchFile, extraBuffered: Int,
                                _ body: (RTreeEntry) throws -> Void) throws {
        var readers: [RunReader] = []
        for run in group {
            var reader = RunReader(run: run, capacity: limits.bufferEntries)
            try reader.refill(from: scratch)
            if !reader.isDone { readers.append(reader) }
        }
        peakEntriesInMemory = max(peakEntriesInMemory, readers.count * max(1, limits.bufferEntries) + extraBuffered)
        // heap[0] is the reader whose next entry sorts first.
        var heap = Array(readers.indices)
        for slot in stride(from: heap.count / 2 - 1, through: 0, by: -1) { Self.siftDown(&heap, from: slot, readers) }
        while let top = heap.first {
            try body(readers[top].next)
            try readers[top].advance(from: scratch)
            if readers[top].isDone {
                heap[0] = heap[heap.count - 1]
                heap.removeLast()
            }
            Self.siftDown(&heap, from: 0, readers)
        }
    }

    /// Restores the heap order below `start`, ordering readers by their next entry.
    private static func siftDown(_ heap: inout [Int], from start: Int, _ readers: [RunReader]) {
        var slot = start
        while true {
            let left = 2 * slot + 1
            guard left < heap.count else { return }
            var child = left
            if left + 1 < heap.count, readers[heap[left + 1]].next.order < readers[heap[left]].next.order { child = left + 1 }
            guard readers[heap[child]].next.order < readers[heap[slot]].next.order else { return }
            heap.swapAt(slot, child)
            slot = child
        }
    }
}

/// Reads one sorted run of the scratch file through a buffer.
private struct RunReader {
    private var buffer: [RTreeEntry]
    private var position = 0
    private var offset: Int
    private let end: Int
    private let capacity: Int

    init(run: Range<Int>, capacity: Int) {
        offset = run.lowerBound
        end = run.upperBound
        self.capacity = max(1, capacity)
        buffer = []
    }

    /// True when every entry of the run was passed.
    var isDone: Bool { position >= buffer.count }
    /// The run's next entry (while not done).
    var next: RTreeEntry { buffer[position] }

    mutating func advance(from scratch: ScratchFile) throws {
        position += 1
        if position == buffer.count { try refill(from: scratch) }
    }

    mutating func refill(from scratch: ScratchFile) throws {
        let stride = MemoryLayout<RTreeEntry>.stride
        let entries = min(capacity, (end - offset) / stride)
        buffer = try [RTreeEntry](unsafeUninitializedCapacity: entries) { storage, initialized in
            initialized = 0
            let bytes = UnsafeMutableRawBufferPointer(storage)
            initialized = try scratch.read(at: offset, into: bytes) / stride
        }
        offset += buffer.count * stride
        position = 0
    }
}

/// Appends entries to the scratch file as one run, through a buffer.
private struct RunWriter {
    private let scratch: ScratchFile
    private var buffer: [RTreeEntry] = []
    private let start: Int
    let capacity: Int

    init(scratch: ScratchFile, capacity: Int) {
        self.scratch = scratch
        self.capacity = max(1, capacity)
        start = scratch.byteCount
        buffer.reserveCapacity(self.capacity)
    }

    mutating func append(_ entry: RTreeEntry) throws {
        buffer.append(entry)
        if buffer.count == capacity { try flush() }
    }

    /// Writes what is buffered and returns the run's byte range.
    mutating func finish() throws -> Range<Int> {
        try flush()
        return start..<scratch.byteCount
    }

    private mutating func flush() throws {
        try buffer.withUnsafeBytes { _ = try scratch.append($0) }
        buffer.removeAll(keepingCapacity: true)
    }
}
