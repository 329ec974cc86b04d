import CairnIO
import CairnStore
import Foundation

/// Hands one file's records from a reading thread to the thread that writes the store, in file order, a batch of
/// `batchRecords` at a time, at most `depth` batches ahead: reading and building features (about a third of an
/// import's instructions) then runs beside SQLite, which stays on the one thread of its write transaction.
///
/// The reading thread may need the store (a place lookup reads through the write transaction): it asks with
/// `onWriterThread(_:)`, and the writing thread runs the request while it waits for the next batch. Memory is
/// `depth + 2` batches, whatever the row count.
///
/// `start()`, then `next()` until nil; `finish()` must be called by the writing thread (on every path, errors included): it stops the reading thread
/// and waits for it, so nothing the run owns is used after it returns.
final class RecordPipeline: @unchecked Sendable {
    /// Records per batch: 1,024, the progress bar's step, so each batch ends where the serial loop drew it.
    static let batchRecords = 1024
    /// Batches read ahead: enough to ride out an upsert of `Importer.batchSize` rows.
    static let depth = 8
    /// Rows read but not yet upserted, at most: the batch being upserted, the queue and the batch being read.
    static let rowsInFlight = (depth + 2) * batchRecords

    /// One batch: its features, encoded for the store on the reading thread (so that their dictionaries are made
    /// and freed there, and the writing thread only binds), its rejections, where the reading got to, and the
    /// error that ended it, if any.
    struct Batch {
        /// The batch's valid records, in file order.
        var features = EncodedFeatureBatch()
        /// The line each of `features` starts on.
        var lines: [Int] = []
        /// The batch's refused records, in file order.
        var rejections: [RowRejection] = []
        /// Records read into the batch: features and rejections.
        var recordCount = 0
        /// `FeatureReader.bytesConsumed` after the batch's last record.
        var bytesConsumed: Int64 = 0
        /// Shapes the reading thread repaired, and coordinates it took as the edge, in this batch.
        var repairedShapes = 0
        var clampedCoordinates = 0
        /// What ended the file early (an unreadable file, GEOS that cannot be loaded); thrown after the records.
        var error: (any Error)?
        /// Whether this is the file's last batch.
        var isLast = false
    }

    /// A request of the reading thread, run by the writing thread.
    private final class Request {
        let body: () -> Void
        var done = false
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    private let condition = NSCondition()
    private var queue: [Batch] = []
    private var requests: [Request] = []
    private var stopped = false
    private var readerDone = false
    private var ended = false

    /// `produce` fills one batch (marking the file's last); `threaded: false` runs it on the writing thread from
    /// `next()`, with no thread at all (standard input: a thread blocked reading it could not be stopped).
    init(threaded: Bool, produce: @escaping (_ batch: inout Batch) -> Void) {
        self.threaded = threaded
        self.produce = UncheckedBox(produce)
    }

    private let threaded: Bool
    private let produce: UncheckedBox<(inout Batch) -> Void>

    /// Starts the reading thread, which fills batches until the last (or until `finish()`).
    func start() {
        guard threaded else { return }
        let thread = Thread { [self] in
            while !isStopped {
                let batch = makeBatch()
                guard push(batch), !batch.isLast else { break }
            }
            condition.withLock {
                readerDone = true
                condition.broadcast()
            }
        }
        // The main thread's usual stack: the readers recurse (nested JSON) as deep as they do there.
        thread.stackSize = 8 << 20
        thread.start()
    }

    private func makeBatch() -> Batch {
        var batch = Batch()
        batch.lines.reserveCapacity(Self.batchRecords)
        produce.value(&batch)
        return batch
    }

    private var isStopped: Bool { condition.withLock { stopped } }

    /// Queues a batch, waiting while `depth` are queued; false when the pipeline was stopped.
    private func push(_ batch: Batch) -> Bool {
        condition.withLock {
            while queue.count >= Self.depth && !stopped { condition.wait() }
            guard !stopped else { return false }
            queue.append(batch)
            condition.broadcast()
            return true
        }
    }

    /// The next batch, nil after the last; runs the reading thread's requests while it waits.
    /// Called by the writing thread only.
    func next() -> Batch? {
        guard threaded else {
            guard !ended else { return nil }
            let batch = makeBatch()
            ended = batch.isLast
            return batch
        }
        condition.lock()
        defer { condition.unlock() }
        while true {
            if !queue.isEmpty {
                let batch = queue.removeFirst()
                if batch.isLast { ended = true }
                condition.broadcast()
                return batch
            }
            if ended || readerDone { return nil }
            if !requests.isEmpty {
                let request = requests.removeFirst()
                condition.unlock()
                request.body()
                condition.lock()
                request.done = true
                condition.broadcast()
                continue
            }
            condition.wait()
        }
    }

    /// Runs `body` on the writing thread and returns its result; called by the reading thread. After `finish()`,
    /// returns nil without running it (the run is over; its records are not used).
    func onWriterThread<T>(_ body: @escaping () -> T?) -> T? {
        guard threaded else { return body() }
        var result: T?
        let request = Request { result = body() }
        condition.lock()
        defer { condition.unlock() }
        guard !stopped else { return nil }
        requests.append(request)
        condition.broadcast()
        while !request.done && !stopped { condition.wait() }
        return request.done ? result : nil
    }

    /// Stops the reading thread and waits until it has left: called by the writing thread when it is done with
    /// the file, whether it read it all or stopped at an error.
    func finish() {
        guard threaded else { return }
        condition.withLock {
            stopped = true
            condition.broadcast()
            while !readerDone { condition.wait() }
            queue.removeAll()
        }
    }
}

/// Carries a value that is used by one thread at a time to another thread.
final class UncheckedBox<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}
