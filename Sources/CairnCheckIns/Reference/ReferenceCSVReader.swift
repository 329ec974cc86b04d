import CairnCore
import CairnIO
import Dispatch

/// The reference files' CSV readers, on the check-in scanner: a record at a time (joins), or every row of a
/// file parsed in parallel (places, events).
enum ReferenceCSVReader {
    /// Iterates a CSV file's records with the byte scanner: the header first (to `layout`), then each row; lines
    /// that are not records (too long, a quote left open) go to `skip` with their line. Returns the header, or nil
    /// for a file without one (empty, or blank lines only).
    @discardableResult
    static func forEachCSVRecord<Layout>(
        path: String,
        layout: ([String]) -> Layout?,
        row: (Layout?, CheckInCSVScanner, Int) throws -> Void,
        skip: (String) -> Void
    ) throws -> [String]? {
        let input = try CheckInBatchInput(path: path)
        var scanner = CheckInCSVScanner()
        defer { scanner.deallocate() }
        var columns: Layout?
        var header: [String]?
        var line = 1
        while let batch = try input.next() {
            if let record = input.overlong {
                skip("\(path):\(line): \(record.problem(limit: input.maxRecordBytes))")
                line += record.lineFeeds
                continue
            }
            guard let base = batch.baseAddress else { continue }
            scanner.reset(forBufferOf: batch.count)
            var position = 0
            while position < batch.count {
                let (outcome, next, lines) = scanner.scanRecord(base, start: position, end: batch.count)
                defer { position = next; line += lines }
                if case .unterminatedQuote = outcome {
                    skip("\(path):\(line): a quote opened and not closed on its line")
                    continue
                }
                if scanner.isBlank(outcome, start: base + position) { continue } // an empty line, not `,"…`
                if header == nil {
                    header = (0..<scanner.fieldCount).map { scanner.field($0).text.trimmingSpaces }
                    columns = header.flatMap(layout)
                    continue
                }
                try row(columns, scanner, line)
            }
        }
        return header
    }

    /// Parses a CSV file's rows with `workers` threads: each batch is split at record boundaries and the pieces
    /// are parsed at once, each into rows of its own (`row` appends a row, or returns why it skipped it); the
    /// pieces' rows are joined in order, a few array copies per piece.
    static func parallelCSVRows<Layout: Sendable, Rows: ReferenceRowList>(
        path: String, workers: Int,
        layout: ([String]) -> Layout?,
        row: @escaping @Sendable (Layout, CheckInCSVScanner, inout Rows) -> String?
    ) throws -> ParsedReferenceRows<Rows> {
        var parsed = ParsedReferenceRows<Rows>()
        let input = try CheckInBatchInput(path: path)
        let pieceCount = max(1, workers == 1 ? 1 : 4 * workers)
        let scanners = (0..<pieceCount).map { _ in CheckInScannerBox() }
        var columns: Layout?
        var line = 1
        while let batch = try input.next() {
            if let record = input.overlong {
                parsed.skippedCount += 1
                if parsed.skipped.count < 10 {
                    parsed.skipped.append("\(path):\(line): \(record.problem(limit: input.maxRecordBytes))")
                }
                line += record.lineFeeds
                continue
            }
            guard let base = batch.baseAddress else { continue }
            var start = 0
            if parsed.header == nil {
                let scanner = scanners[0]
                scanner.scanner.reset(forBufferOf: batch.count)
                while start < batch.count, parsed.header == nil {
                    let (outcome, next, lines) = scanner.scanner.scanRecord(base, start: start, end: batch.count)
                    let blank = scanner.scanner.isBlank(outcome, start: base + start)
                    start = next
                    line += lines
                    if blank { continue }
                    let header = (0..<scanner.scanner.fieldCount).map { scanner.scanner.field($0).text.trimmingSpaces }
                    parsed.header = header
                    if case .record(tooManyFields: false) = outcome {
                        parsed.headerIsPlain = header.indices.allSatisfy { scanner.scanner.field($0).text == header[$0] }
                    }
                    columns = layout(header)
                }
                guard parsed.header != nil else { continue }
                guard columns != nil else { return parsed }
                parsed.layoutFound = true
            }
            guard let columns else { continue }
            let rest = BatchPointer(base: base + start)
            let count = batch.count - start
            let ranges = CSVBoundaries.split(rest.base, count: count, pieces: pieceCount)
            let work = { @Sendable (k: Int) in
                let box = scanners[k]
                var scanner = box.scanner
                scanner.reset(forBufferOf: ranges[k].count)
                var position = ranges[k].lowerBound
                var localLine = 0
                var rows = Rows()
                var skips: [(line: Int, message: String)] = []
                while position < ranges[k].upperBound {
                    let (outcome, next, consumed) = scanner.scanRecord(rest.base, start: position, end: ranges[k].upperBound)
                    let recordLine = localLine
                    let blank = scanner.isBlank(outcome, start: rest.base + position)
                    position = next
                    localLine += consumed
                    if blank { continue }
                    if case .unterminatedQuote = outcome {
                        skips.append((recordLine, "a quote opened and not closed on its line"))
                    } else if let message = row(columns, scanner, &rows) {
                        skips.append((recordLine, message))
                    }
                }
                box.scanner = scanner
                box.rows = rows
                box.skips = skips
                box.lines = localLine
            }
            if workers > 1, ranges.count > 1 {
                DispatchQueue.concurrentPerform(iterations: ranges.count, execute: work)
            } else {
                for k in ranges.indices { work(k) }
            }
            if parsed.rows.count == 0, let size = input.sizeHint, count > 0 {
                // Size the result from the first batch's rows per byte, so that a large file is not copied
                // from buffer to doubled buffer while its rows are appended.
                let rowsInBatch = ranges.indices.reduce(0) { $0 + ((scanners[$1].rows as? Rows)?.count ?? 0) }
                parsed.rows.reserveCapacity(Int(Double(rowsInBatch) * Double(size) / Double(count) * 1.02) + 16)
            }
            for k in ranges.indices {
                let box = scanners[k]
                if let rows = box.rows as? Rows { parsed.rows.append(contentsOf: rows) }
                for (offset, message) in box.skips {
                    parsed.skippedCount += 1
                    if parsed.skipped.count < 10 { parsed.skipped.append("\(path):\(line + offset): \(message)") }
                }
                line += box.lines
                box.rows = ()
                box.skips = []
            }
        }
        return parsed
    }
}
