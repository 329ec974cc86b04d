import CairnCore
import Dispatch

/// Validates a stream of check-ins in batches, in parallel, writing one row per check-in in input order.
///
/// Each batch (about 8 MB of input, whole records) goes through three parallel phases:
/// 1. split into pieces at record boundaries; each piece parses and judges its rows (`CheckInValidator`,
///    immutable and shared);
/// 2. duplicates and visits, sharded by a hash of the user id: each shard's ledger sees its users' rows in
///    input order, so "the first valid check-in wins" holds exactly and no locks are needed;
/// 3. each piece renders its rows; then the pieces are written in order.
/// Memory: the batch, per-row arrays for one batch, and the ledgers (which grow only with distinct users and
/// (user, event) pairs of valid check-ins, plus (place, user) pairs with `--stats`).
///
/// One validator runs one input (`run`); its counts, messages and ledgers then describe that run.
public final class CheckInBatchValidator {
    /// The rule's tables: places, events, joins, the distance model and accuracy policy.
    public let validator: CheckInValidator
    /// How the input is read.
    public let inputFormat: CheckInInputFormat
    let text: CheckInOutputText
    let workers: Int
    let pieces: [CheckInPiece]
    let shards: [CheckInShard]
    /// Rows per verdict, by `CheckInVerdict` ordinal.
    public private(set) var counts = [Int](repeating: 0, count: CheckInVerdictIndex.names.count)
    /// Rows judged (one output row each).
    public private(set) var rows = 0
    /// Malformed rows, the first `maxMessages`, with their line.
    public private(set) var malformedMessages: [String] = []
    let maxMessages = 20
    private var layout: CheckInCSVLayout?
    /// The output's verdict texts in fixed slots (`CheckInOutputText.writeCSVRow`).
    private let verdictSlots: ContiguousArray<UInt8>
    /// Asked before each batch (about 8 MB of input): true stops the run with a `CheckInError`, the rows of the
    /// batches before it written. A server stops the work of a client that went or ran out of time; the CLI never.
    public var shouldStop: () -> Bool = { false }
    /// When set, only the check-ins whose user falls in this shard are judged and written (`cairn checkins validate
    /// --shard`); the others are read and skipped, so N runs over the same input give together one run's rows.
    public var userShard: CheckInUserShard?
    /// Wall seconds per phase: judge, settle, render, waiting for the writer, copying between phases; and
    /// reading (`run`).
    public private(set) var phaseSeconds = [Double](repeating: 0, count: 6)

    private func lap(_ clock: inout ContinuousClock.Instant) -> Double {
        let now = ContinuousClock.now
        let elapsed = now - clock
        clock = now
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// A validator for one run.
    /// - Parameters:
    ///   - validator: the rule's tables (`CheckInReferenceData.makeValidator`, or built from arrays).
    ///   - inputFormat: how the input is read.
    ///   - outputFormat: the verdict rows' format (CSV gets its header).
    ///   - countsVisits: whether valid visits are counted per place and user (`placeStats()`).
    ///   - workers: threads, 1 or more.
    /// - Complexity: O(p + e) for p places and e events (their output texts are rendered once).
    public init(validator: CheckInValidator, inputFormat: CheckInInputFormat, outputFormat: CheckInOutputFormat,
                countsVisits: Bool, workers: Int) {
        self.validator = validator
        self.inputFormat = inputFormat
        self.text = CheckInOutputText(validator: validator, format: outputFormat)
        self.verdictSlots = text.makeVerdictSlots()
        self.workers = max(1, workers)
        pieces = (0..<(self.workers == 1 ? 1 : 4 * self.workers)).map { _ in CheckInPiece() }
        shards = (0..<self.workers).map { _ in CheckInShard(CheckInLedger(validator: validator, countsVisits: countsVisits)) }
    }

    /// The ledgers, one per shard (for statistics and memory figures).
    /// - Complexity: O(workers).
    public var ledgers: [CheckInLedger] { shards.map(\.ledger) }

    /// Writes each batch's rendered pieces, in order, on its own thread: the write of one batch overlaps the
    /// reading, judging and settling of the next (the pieces' output buffers are reused only after it).
    private let writer = DispatchQueue(label: "cairn.checkins.writer")
    private let writing = DispatchGroup()

    /// Reads every batch from `input` and writes rows with `write` (in order, from one thread at a time; all
    /// of them before `run` returns). `write` runs on the writer thread, not the caller's: it may only touch
    /// state the caller reads after `run` returns. It is escaping because the writer's blocks hold it: they
    /// may be released after `run` returns (a group's wait ends before its block is destroyed), so a
    /// non-escaping closure lent with `withoutActuallyEscaping` could be freed while still referenced.
    /// - Throws: `CheckInError` when the input cannot be read or a CSV header lacks required columns (then
    ///   nothing was written, not even the header).
    /// - Complexity: O(n) for n input bytes, on `workers` threads; memory about one batch plus the ledgers.
    public func run(input: CheckInBatchInput, write: @escaping ([UInt8]) -> Void) throws(CheckInError) {
        let sink = CheckInWriteBox(write, header: text.format == .csv ? Array(CheckInOutputFormat.csvHeader.utf8) : [])
        defer { writing.wait() }
        try run(input: input, sink: sink)
        writing.wait()
        sink.finish()
    }

    /// `run(input:write:)` into an output file: the rows are written as they come, and the file is put in place
    /// (`CheckInOutputFile.commit`) once the run has completed; a failed run leaves any file at its path alone.
    /// - Throws: `CheckInError` for the input (as `run(input:write:)`) or a write that failed.
    /// - Complexity: as `run(input:write:)`.
    public func run(input: CheckInBatchInput, output: CheckInOutputFile) throws(CheckInError) {
        let failure = CheckInFirstError()
        try run(input: input) { bytes in
            guard !failure.isSet else { return }
            do throws(CheckInError) { try output.write(bytes) } catch { failure.set(error) }
        }
        if let error = failure.error { throw error }
        try output.commit()
    }

    /// Visits per place (valid check-ins when `countsVisits`): visits, distinct visitors and the top visitor.
    /// - Complexity: O(v log v) for v (place, user) pairs.
    public func placeStats() -> [CheckInPlaceStats] { CheckInLedger.placeStats(ledgers) }

    private func run(input: CheckInBatchInput, sink: CheckInWriteBox) throws(CheckInError) {
        var line = 1
        var clock = ContinuousClock.now
        while let batch = try input.next() {
            phaseSeconds[5] += lap(&clock)
            if shouldStop() { throw CheckInError("\(input.path): the run was stopped at line \(line), before its end") }
            defer { clock = ContinuousClock.now }
            if let record = input.overlong {
                if inputFormat == .csv, layout == nil {
                    throw CheckInError("\(input.path): the header is longer than \(input.maxRecordBytes) bytes")
                }
                writing.wait()
                writeOverlong(record, line: line, limit: input.maxRecordBytes, sink: sink)
                line += record.lineFeeds
                continue
            }
            guard let base = batch.baseAddress else { continue }
            var start = 0
            // Until the header is found (blank lines may fill whole batches before it), each batch is searched for it.
            if inputFormat == .csv, layout == nil {
                // The header: the first non-blank record.
                let piece = pieces[0]
                piece.reset(bytes: batch.count)
                while start < batch.count {
                    let (outcome, next, lines) = piece.scanner.scanRecord(base, start: start, end: batch.count)
                    if piece.scanner.isBlank(outcome, start: base + start) {
                        start = next
                        line += lines
                        continue
                    }
                    start = next
                    line += lines
                    let header = (0..<piece.scanner.fieldCount).map { piece.scanner.field($0).text.trimmingSpaces }
                    layout = try CheckInCSVLayout(header: header, file: input.path)
                    break
                }
                if layout == nil { continue }
            }
            line = process(base + start, count: batch.count - start, firstLine: line, sink: sink)
            if !reservedPairs {
                reservedPairs = true
                reservePairs(batchBytes: batch.count - start, fileBytes: input.sizeHint)
            }
        }
    }

    /// Whether the shards' duplicate state was sized (after the first batch).
    private var reservedPairs = false

    /// Sizes each shard's duplicate state once, after the first batch of a file of known size: the rows it
    /// settled, scaled by the file's size over the batch's. Growing step by step instead moves every pair at
    /// each step. An overestimate costs at most 5.6 bytes per settled row of the estimate.
    private func reservePairs(batchBytes: Int, fileBytes: Int?) {
        guard let fileBytes, batchBytes > 0, fileBytes > 2 * batchBytes else { return }
        let settled = pieces.reduce(0) { sum, piece in sum + piece.shardRows.reduce(0) { $0 + $1.count } }
        let estimate = Double(settled) * Double(fileBytes) / Double(batchBytes) / Double(shards.count)
        for shard in shards { shard.ledger.reserve(pairs: Int(min(estimate, Double(Int32.max)))) }
    }

    /// The verdict for a record skipped for its length: `malformed_row`, with the id read from its first bytes
    /// when they hold one whole (CSV: the first field; JSON lines: the id member).
    private func writeOverlong(_ record: CheckInOverlongRecord, line: Int, limit: Int, sink: CheckInWriteBox) {
        // Its user is not read: it counts as the empty user id (`CheckInUserShard`).
        if let userShard, !userShard.contains(user: UnsafeRawBufferPointer(start: nil, count: 0)) { return }
        var output: [UInt8] = []
        record.head.withUnsafeBufferPointer { head in
            var id = CheckInField.empty
            var scanner = CheckInCSVScanner()
            var json = CheckInJSONLineParser()
            defer {
                scanner.deallocate()
                json.deallocate()
            }
            if let base = head.baseAddress, head.count > 0 {
                switch inputFormat {
                case .csv:
                    scanner.reset(forBufferOf: head.count)
                    _ = scanner.scanRecord(base, start: 0, end: head.count)
                    // The head ends inside the record: its first field is whole only if a separator follows it.
                    if scanner.fieldCount > 1 { id = scanner.field(0) }
                case .jsonl:
                    // The parse stops where the head ends; members read before that are whole, except a number
                    // running up to the head's last byte (it may go on).
                    json.reset(forBufferOf: head.count)
                    let fields = json.parse(base, start: 0, end: head.count).0
                    if let start = fields.id.base, !(start >= base && start + fields.id.count == base + head.count) { id = fields.id }
                }
            }
            text.appendRow(id: id, event: .empty, result: CheckInResult(reason: .malformedRow), to: &output)
        }
        sink.write(output)
        rows += 1
        counts[CheckInVerdictIndex.ordinal(.malformedRow)] += 1
        if malformedMessages.count < maxMessages {
            malformedMessages.append("line \(line): \(record.problem(limit: limit))")
        }
    }

    /// Validates one batch of whole records; returns the line number after it.
    private func process(_ base: UnsafePointer<UInt8>, count: Int, firstLine: Int, sink: CheckInWriteBox) -> Int {
        guard count > 0 else { return firstLine }
        let ranges = CSVBoundaries.split(base, count: count, pieces: pieces.count)
        let pieces = self.pieces
        // Verdicts here are only printed, so distances need be exact only to the printed millimetre.
        let validator = self.validator.printingDistances()
        let layout = self.layout
        let inputFormat = self.inputFormat
        let batch = BatchPointer(base: base)
        let shardCount = shards.count
        let countsVisits = shards.first?.ledger.countsVisits ?? false
        let userShard = self.userShard
        let parallel = workers > 1 && ranges.count > 1

        // Phase 1: parse and judge.
        let judgeRange = { @Sendable (k: Int) in
            Self.judgePiece(pieces[k], base: batch.base, range: ranges[k], layout: layout, format: inputFormat, validator: validator,
                            shardCount: shardCount, countsVisits: countsVisits, userShard: userShard)
        }
        var clock = ContinuousClock.now
        if parallel { DispatchQueue.concurrentPerform(iterations: ranges.count, execute: judgeRange) } else { for k in ranges.indices { judgeRange(k) } }
        phaseSeconds[0] += lap(&clock)

        // Phase 2: duplicates and visits, one shard per user-hash class.
        let shards = self.shards
        let pieceCount = ranges.count
        let settleShard = { @Sendable (s: Int) in
            let shard = shards[s]
            // The ledger is worked on as a local (no exclusivity checks per row), then put back.
            var ledger = shard.ledger
            shard.ledger = CheckInLedger.placeholder
            for k in 0..<pieceCount {
                let piece = pieces[k]
                // Shards only read the results; the rows that turn out duplicates are listed per shard and
                // marked when the piece is rendered.
                if shard.duplicates.count < pieceCount { shard.duplicates += Array(repeating: [], count: pieceCount - shard.duplicates.count) }
                var duplicates: [Int32] = []
                swap(&duplicates, &shard.duplicates[k])
                duplicates.removeAll(keepingCapacity: true)
                piece.results.withUnsafeBufferPointer { results in
                    piece.userHashes.withUnsafeBufferPointer { hashes in
                        piece.users.withUnsafeBufferPointer { users in
                            // This shard's rows were listed in phase 1; settle them 64 at a time (looking ahead).
                            var seen = 0
                            piece.shardRows[s].withUnsafeBufferPointer { rows in
                                guard let hashBase = hashes.baseAddress, let resultBase = results.baseAddress else { return }
                                var start = 0
                                while start < rows.count {
                                    let block = UnsafeBufferPointer(rebasing: rows[start ..< min(rows.count, start + 64)])
                                    seen &+= ledger.settle(rows: block, results: resultBase, users: { users[$0].raw },
                                                           hashes: hashBase, duplicates: &duplicates)
                                    start += 64
                                }
                            }
                            shard.peeked &+= seen
                        }
                    }
                }
                swap(&duplicates, &shard.duplicates[k])
            }
            shard.ledger = ledger
        }
        phaseSeconds[4] += lap(&clock)
        if parallel, shards.count > 1 { DispatchQueue.concurrentPerform(iterations: shards.count, execute: settleShard) } else { for s in shards.indices { settleShard(s) } }
        phaseSeconds[1] += lap(&clock)

        // Phase 3: render.
        let text = self.text
        let verdictSlots = self.verdictSlots
        let render = { @Sendable (k: Int) in
            let piece = pieces[k]
            for shard in shards where k < shard.duplicates.count {
                for row in shard.duplicates[k] { piece.results[Int(row)].reason = .duplicate }
            }
            var output = piece.output
            piece.output = []
            output.removeAll(keepingCapacity: true)
            var counts = [Int](repeating: 0, count: CheckInVerdictIndex.names.count)
            var slow: [UInt8] = []
            var warm: UInt8 = 0
            defer { piece.warmText = warm }
            verdictSlots.withUnsafeBufferPointer { slots in
                guard let slotBase = slots.baseAddress else { return }
                piece.results.withUnsafeBufferPointer { results in
                    piece.ids.withUnsafeBufferPointer { ids in
                        piece.eventFields.withUnsafeBufferPointer { events in
                            // Rows are written in runs straight into spare capacity; a row that needs escaping or
                            // a table lookup goes through `appendRow`.
                            if text.format != .csv {
                                for r in results.indices {
                                    counts[CheckInVerdictIndex.ordinal(results[r].reason)] += 1
                                    text.appendRow(id: ids[r], event: events[r], result: results[r], to: &output)
                                }
                                return
                            }
                            var r = 0
                            while r < results.count {
                                var bound = 0
                                var end = r
                                // Sizing the run also touches each row's place text, so that those cache
                                // misses overlap here instead of stalling the writes one by one.
                                while end < results.count, end - r < 256 {
                                    bound += text.csvRowBound(id: ids[end], event: events[end])
                                    warm &+= text.touch(place: results[end].place)
                                    end += 1
                                }
                                let before = output.count
                                var rows = r
                                output.append(contentsOf: repeatElement(0, count: bound))
                                var written = 0
                                output.withUnsafeMutableBufferPointer { buffer in
                                    guard let base = buffer.baseAddress else { return }
                                    while rows < end {
                                        let result = results[rows]
                                        if let n = text.writeCSVRow(id: ids[rows], event: events[rows], result: result,
                                                                    verdictSlots: slotBase, to: base + before + written) {
                                            written += n
                                        } else {
                                            slow.removeAll(keepingCapacity: true)
                                            text.appendRow(id: ids[rows], event: events[rows], result: result, to: &slow)
                                            guard slow.count <= bound - written else { break }
                                            slow.withUnsafeBufferPointer { bytes in
                                                if let from = bytes.baseAddress { (base + before + written).update(from: from, count: bytes.count) }
                                            }
                                            written += slow.count
                                        }
                                        counts[CheckInVerdictIndex.ordinal(result.reason)] += 1
                                        rows += 1
                                    }
                                }
                                output.removeLast(bound - written)
                                if rows < end {
                                    let result = results[rows]
                                    counts[CheckInVerdictIndex.ordinal(result.reason)] += 1
                                    slow.removeAll(keepingCapacity: true)
                                    text.appendRow(id: ids[rows], event: events[rows], result: result, to: &slow)
                                    output.append(contentsOf: slow)
                                    rows += 1
                                }
                                r = rows
                            }
                        }
                    }
                }
            }
            piece.output = output
            piece.counts = counts
        }
        phaseSeconds[4] += lap(&clock)
        // The previous batch's rows must be out before the pieces' buffers are rendered into again.
        writing.wait()
        phaseSeconds[3] += lap(&clock)
        if parallel { DispatchQueue.concurrentPerform(iterations: pieceCount, execute: render) } else { for k in 0..<pieceCount { render(k) } }
        phaseSeconds[2] += lap(&clock)

        // Phase 4: write in order (on the writer thread); collect counts and messages.
        let written = Array(pieces.prefix(pieceCount))
        writer.async(group: writing) {
            for piece in written { sink.write(piece.output) }
        }
        var line = firstLine
        for k in 0..<pieceCount {
            let piece = pieces[k]
            rows += piece.results.count
            for v in counts.indices { counts[v] += piece.counts[v] }
            for bad in piece.malformed where malformedMessages.count < maxMessages {
                malformedMessages.append("line \(line + bad.line): \(bad.message)")
            }
            line += piece.lines
        }
        return line
    }

    /// Phase 1 for one piece.
    private static func judgePiece(_ piece: CheckInPiece, base: UnsafePointer<UInt8>, range: Range<Int>,
                                   layout: CheckInCSVLayout?, format: CheckInInputFormat, validator: CheckInValidator,
                                   shardCount: Int, countsVisits: Bool, userShard: CheckInUserShard?) {
        if piece.shardRows.count != shardCount {
            piece.shardRows = Array(repeating: [], count: shardCount)
        }
        piece.reset(bytes: range.count)
        // Everything is worked on as locals and put back at the end: class properties would cost an
        // exclusivity check per access.
        var scanner = piece.scanner, json = piece.json, scratch = piece.scratch
        var ids = piece.ids, users = piece.users, events = piece.eventFields, hashes = piece.userHashes
        var results = piece.results, malformed = piece.malformed
        var shardRows = piece.shardRows
        piece.shardRows = []
        piece.ids = []; piece.users = []; piece.eventFields = []; piece.userHashes = []; piece.results = []; piece.malformed = []
        piece.scratch = []
        let expected = (range.count / 64) + 16
        ids.reserveCapacity(expected); users.reserveCapacity(expected); events.reserveCapacity(expected)
        hashes.reserveCapacity(expected); results.reserveCapacity(expected)
        var position = range.lowerBound
        let end = range.upperBound
        var line = 0
        // Rows go in blocks: read a block, resolve all its ids, touch their places, then judge. The lookups of
        // different rows do not depend on each other, so their cache misses overlap.
        let blockSize = 16
        // Filled from the front and overwritten block after block (`blockCount` in use): emptying an array of
        // tuples each block cost more than a hundred instructions a row.
        var block = [(fields: CheckInRowFields, line: Int, problem: String?)](repeating: (CheckInRowFields(), 0, nil), count: blockSize)
        var blockCount = 0
        var targets = [CheckInValidator.Target](repeating: CheckInValidator.Target(event: -2, place: -2), count: blockSize)
        var eventKeys = [UnsafeRawBufferPointer](repeating: UnsafeRawBufferPointer(start: nil, count: 0), count: blockSize)
        var placeKeys = eventKeys
        var warm = 0.0
        while position < end {
            blockCount = 0
            while position < end, blockCount < blockSize {
                let recordLine = line
                var fields = CheckInRowFields()
                var problem: String?
                switch format {
                case .csv:
                    let (outcome, next, lines) = scanner.scanRecord(base, start: position, end: end)
                    // A stray quote after an empty first field (`,"u,…`) is a bad row, not an empty line.
                    let blank = scanner.isBlank(outcome, start: base + position)
                    position = next
                    line += lines
                    if blank { continue }
                    guard let layout else { continue }
                    switch outcome {
                    case .unterminatedQuote:
                        problem = "a quote opened and not closed on its line"
                    case .record(let tooMany):
                        if tooMany || scanner.fieldCount != layout.fieldCount {
                            problem = "expected \(layout.fieldCount) fields, got \(tooMany ? "more than \(scanner.maxFields)" : String(scanner.fieldCount))"
                        }
                    }
                    fields = layout.fields(from: scanner)
                case .jsonl:
                    var lineEnd = position
                    while lineEnd < end, base[lineEnd] != 0x0A { lineEnd += 1 }
                    var contentEnd = lineEnd
                    if contentEnd > position, base[contentEnd - 1] == 0x0D { contentEnd -= 1 }
                    let start = position
                    position = lineEnd < end ? lineEnd + 1 : end
                    if lineEnd < end { line += 1 }
                    var blank = true
                    for i in start..<contentEnd where base[i] != 0x20 && base[i] != 0x09 { blank = false; break }
                    if blank { continue }
                    (fields, problem) = json.parse(base, start: start, end: contentEnd)
                }
                // Another shard's row: read (its lines counted), not judged, not written.
                if let userShard, !userShard.contains(user: fields.user.raw) { continue }
                block[blockCount] = (fields, recordLine, problem)
                blockCount += 1
            }
            for i in 0 ..< blockCount {
                eventKeys[i] = block[i].fields.event.raw
                placeKeys[i] = block[i].fields.place.raw
            }
            targets.withUnsafeMutableBufferPointer { targets in
                guard let into = targets.baseAddress else { return }
                validator.resolve(eventKeys: eventKeys, placeKeys: placeKeys, count: blockCount, into: into)
            }
            for i in 0 ..< blockCount { warm += validator.touch(place: targets[i].place) }
            for i in 0 ..< blockCount {
                let (fields, recordLine, problem) = block[i]
                if let problem {
                    // Unreadable: the rule's first reason, judged without the row's user.
                    let (result, _, bad) = CheckInRowJudge.judge(
                        readProblem: problem, id: fields.id.raw, user: fields.user.raw, latitude: .nan, longitude: .nan,
                        seconds: .nan, accuracyMeters: 0, target: targets[i], validator: validator, scratch: &scratch)
                    malformed.append((results.count, recordLine, bad ?? problem))
                    ids.append(fields.id)
                    users.append(.empty)
                    events.append(.empty)
                    hashes.append(0)
                    results.append(result)
                    continue
                }
                // The rule (Core's `CheckInRowJudge`) on the values this reader reads.
                let accuracy = fields.accuracy.count == 0 ? 0 : (fields.accuracy.number ?? .nan)
                let (result, hash, bad) = CheckInRowJudge.judge(
                    readProblem: nil, id: fields.id.raw, user: fields.user.raw,
                    latitude: fields.latitude.number ?? .nan, longitude: fields.longitude.number ?? .nan,
                    seconds: fields.time.seconds, accuracyMeters: accuracy,
                    target: targets[i], validator: validator, scratch: &scratch)
                if let bad { malformed.append((results.count, recordLine, bad)) }
                if result.reason == nil, result.event >= 0 || (countsVisits && result.place >= 0) {
                    let shard = shardCount > 1 ? Int(fmix64(hash ^ 0x5bd1_e995) % UInt64(shardCount)) : 0
                    shardRows[shard].append(Int32(results.count))
                }
                ids.append(fields.id)
                users.append(fields.user)
                events.append(fields.event)
                hashes.append(hash)
                results.append(result)
            }
        }
        piece.warm = warm
        piece.scanner = scanner
        piece.json = json
        piece.scratch = scratch
        piece.ids = ids
        piece.users = users
        piece.eventFields = events
        piece.userHashes = hashes
        piece.results = results
        piece.shardRows = shardRows
        piece.malformed = malformed
        piece.lines = line
    }
}
