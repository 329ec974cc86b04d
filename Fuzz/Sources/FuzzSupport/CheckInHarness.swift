import CairnCheckIns
import CairnCore

/// Runs the batch check-in validator (the path `cairn checkins validate` takes) over a fuzz input, with small
/// batches and a small record limit so that batch ends, pieces and over-limit records are all reached by small
/// inputs, and checks:
/// - one verdict per input row: every line that is not blank (after a trailing CR; JSON lines: only spaces and
///   tabs) and, for CSV, comes after the header, gets exactly one output row, and so does every over-limit line;
/// - the counts per verdict add up to the rows written;
/// - every malformed-row message names a line from 1 to the input's line count;
/// - a refused input (a CSV header without the required columns) writes nothing.
public enum CheckInHarness {
    /// Bytes per batch (the reader grows a batch to the record limit for a long line).
    public static let batchBytes = 256
    /// The longest record (line) judged; a longer one is one `malformed_row`.
    public static let maxRecordBytes = 1024

    /// One place and an event at it: ids `p` and `e`, at 60.17, 24.94, radius 100 m, on 1 June 2026 (UTC).
    static let validator: CheckInValidator = {
        do {
            let circle = try Circle(center: Coordinate(latitude: 60.17, longitude: 24.94), radiusMeters: 100)
            let window = try TimeWindow(start: Timestamp(secondsSince1970: 1_780_272_000), end: Timestamp(secondsSince1970: 1_780_358_400))
            return CheckInValidator(places: [CheckInPlace(id: "p", circle: circle)],
                                    events: [CheckInEvent(id: "e", placeId: "p", window: window)])
        } catch {
            FuzzCheck.fail("cannot build the reference: \(error)")
        }
    }()

    /// Validates `data` as `format` and checks the invariants; aborts (a libFuzzer crash) when one breaks.
    /// - Complexity: O(n) in the input's bytes, plus the validator's work.
    public static func run(_ data: UnsafePointer<UInt8>?, _ size: Int, format: CheckInInputFormat) {
        let bytes = UnsafeBufferPointer(start: data, count: size)
        // A gzip input is decompressed only for a `.gz` name; this one is read as it is.
        let path = FuzzFile.write(bytes, name: "checkins." + format.rawValue)
        let batch = CheckInBatchValidator(validator: validator, inputFormat: format, outputFormat: .jsonl,
                                          countsVisits: true, workers: 2)
        let output = OutputBox()
        let expected = expectedRows(bytes, format: format)
        do {
            let input = try CheckInBatchInput(path: path, batchBytes: batchBytes, maxRecordBytes: maxRecordBytes)
            try batch.run(input: input) { output.bytes += $0 }
        } catch {
            FuzzCheck.require(format == .csv, "a JSON lines input was refused: \(error)")
            if case .rows = expected { FuzzCheck.fail("the input was refused (\(error)) though its header is usable") }
            FuzzCheck.require(output.bytes.isEmpty, "a refused input wrote \(output.bytes.count) bytes")
            return
        }
        if case .refused = expected { FuzzCheck.fail("the input was not refused, though a line over the limit comes before its header") }
        let lines = InputLines(bytes)
        let written = output.bytes.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        FuzzCheck.require(written == batch.rows, "\(written) output rows, but the validator counted \(batch.rows)")
        FuzzCheck.require(batch.counts.reduce(0, +) == batch.rows, "the verdict counts add up to \(batch.counts.reduce(0, +)), not \(batch.rows)")
        if case .rows(let expected) = expected {
            FuzzCheck.require(batch.rows == expected, "\(batch.rows) verdicts for \(expected) input rows")
        }
        for message in batch.malformedMessages {
            let number = message.dropFirst("line ".count).prefix { $0.isNumber }
            guard message.hasPrefix("line "), let line = Int(number) else { FuzzCheck.fail("a message names no line: \(message)") }
            FuzzCheck.require(line >= 1 && line <= lines.lastLine, "message '\(message)' names a line outside 1...\(lines.lastLine)")
        }
    }

    /// What a run of an input must give.
    enum Expectation {
        /// This many verdicts.
        case rows(Int)
        /// A refusal: a CSV line over the limit comes before the header.
        case refused
        /// Either a refusal or any count: a CSV header other than the canonical one (aliases, quotes, missing columns).
        case unknown
    }

    /// The rows an input holds, by the rule above.
    static func expectedRows(_ bytes: UnsafeBufferPointer<UInt8>, format: CheckInInputFormat) -> Expectation {
        let lines = InputLines(bytes)
        var rows = 0
        var headerSeen = format != .csv
        for (number, range) in lines.ranges.enumerated() {
            var content = range
            // The first batch loses a UTF-8 byte order mark (the record limit counts it).
            if number == 0, content.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
                content = 3 ..< content.upperBound
            }
            if isOverLimit(range, in: bytes) {
                guard headerSeen else { return .refused }
                rows += 1
                continue
            }
            if content.last.map({ bytes[$0] == 0x0D }) == true { content = content.lowerBound ..< content.upperBound - 1 }
            let blank = format == .csv ? content.isEmpty : content.allSatisfy { bytes[$0] == 0x20 || bytes[$0] == 0x09 }
            if blank { continue }
            if headerSeen {
                rows += 1
            } else {
                headerSeen = true
                guard isCanonicalHeader(bytes, content) else { return .unknown }
            }
        }
        return .rows(rows)
    }

    /// Whether the line in `range` is over the record limit as `CheckInBatchInput` reads a mapped file: no line
    /// feed within `maxRecordBytes` bytes of its start, and the file goes on past them.
    static func isOverLimit(_ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let limit = max(maxRecordBytes, batchBytes)
        return range.count >= limit && range.lowerBound + limit < bytes.count
    }

    /// Whether a CSV header line is the seeds' header, which the validator must accept (other headers, with
    /// aliases, quotes or missing columns, are left to the validator's own tests).
    static func isCanonicalHeader(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        let names = bytes[range].split(separator: 0x2C, omittingEmptySubsequences: false).map { name in
            String(decoding: name.drop { $0 == 0x20 }.reversed().drop { $0 == 0x20 }.reversed(), as: UTF8.self)
        }
        return names == ["id", "userId", "eventId", "placeId", "latitude", "longitude", "time"]
    }
}

/// The rows written by the validator's writer thread; read after `run` returns.
final class OutputBox: @unchecked Sendable {
    var bytes: [UInt8] = []
}
