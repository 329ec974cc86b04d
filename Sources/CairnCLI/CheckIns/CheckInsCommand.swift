import ArgumentParser
import CairnCore
import CairnIO
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `cairn checkins`: batch check-in validation.
struct CheckInsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "checkins",
        abstract: "Validate check-ins against places, events and joins.",
        subcommands: [CheckInValidateCommand.self]
    )
}

extension CheckInAccuracyPolicy: ExpressibleByArgument {}
extension CheckInOutputFormat: ExpressibleByArgument {}
extension CheckInInputFormat: ExpressibleByArgument {}

/// `cairn checkins validate`: a verdict and a reason for every check-in, streamed, on every core.
struct CheckInValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Judge every check-in: valid, or one reason why not.",
        discussion: """
            Output: one row per check-in, in input order: checkin_id,verdict,reason,distance_m,radius_m,place_id,event_id. \
            verdict is valid or invalid; reason is one of outside_radius, before_start, after_end, unknown_event, \
            unknown_place, not_joined, duplicate, invalid_coordinate, invalid_time, malformed_row, no_match, \
            place_mismatch (the check-in names an event and another place than the event's). \
            distance_m is given for outside_radius: the exact distance from the place's centre, rounded up to the millimetre. \
            A check-in with neither an event nor a place is matched to the places whose circle contains it and their \
            events ongoing at its time. A summary (counts per reason, rows per second) goes to standard error. \
            Exit status: 0 when the run completed, 2 with --fail-on-invalid when a check-in was invalid, 1 when it could not run.
            """
    )

    @Option(name: .customLong("places"), help: ArgumentHelp("Places with a radius (CSV, JSON lines or GeoJSON, .gz too); repeatable.", valueName: "file"))
    var placeFiles: [String] = []

    @Option(name: .customLong("events"), help: ArgumentHelp("Events: id, placeId (or location and radius), startTime, endTime; repeatable.", valueName: "file"))
    var eventFiles: [String] = []

    @Option(name: .customLong("joins"), help: ArgumentHelp("Who joined which event (CSV userId,eventId); when given, check-ins need a join.", valueName: "file"))
    var joinFiles: [String] = []

    @Option(name: .customLong("db"), help: ArgumentHelp("Also take places and events from this store (SQLite).", valueName: "path"))
    var storePath: String?

    @Option(name: .customLong("checkins"), help: ArgumentHelp("The check-ins: id,userId,eventId,placeId,latitude,longitude,time[,accuracy] (CSV or JSON lines, .gz too; - for stdin).", valueName: "file"))
    var checkInFile: String

    @Option(help: ArgumentHelp("Write the verdicts here instead of standard output.", valueName: "file"))
    var out: String?

    @Option(help: "Output format.")
    var format: CheckInOutputFormat = .csv

    @Option(name: .customLong("input-format"), help: "Check-in input format (default: from the file name).")
    var inputFormat: CheckInInputFormat?

    @Option(help: "Distance model.")
    var model: DistanceModel = .wgs84

    @Option(name: .customLong("accuracy-policy"), help: "How GPS accuracy counts: ignore it, or lenient (valid when distance - accuracy <= radius).")
    var accuracyPolicy: CheckInAccuracyPolicy = .ignore

    @Option(name: .customLong("radius"), parsing: .unconditional, help: ArgumentHelp("Radius for places without one (500, 500m, 1.2km).", valueName: "distance"))
    var defaultRadius: String?

    @Flag(help: "Count valid visits per place and per (place, user) and name each place's top visitor.")
    var stats = false

    @Option(name: .customLong("stats-out"), help: ArgumentHelp("Write the visit statistics (CSV) here instead of standard error; implies --stats.", valueName: "file"))
    var statsOut: String?

    @Flag(name: .customLong("fail-on-invalid"), help: "Exit with status 2 when any check-in is invalid.")
    var failOnInvalid = false

    @Option(parsing: .unconditional, help: "Worker threads, 1 to 256 (default: the number of cores).")
    var threads: Int?

    @Option(name: .customLong("batch-bytes"), parsing: .unconditional, help: .hidden)
    var batchBytes: Int = 8 << 20

    func validate() throws {
        if placeFiles.isEmpty, eventFiles.isEmpty, storePath == nil {
            throw ValidationError("give places and events to judge against: --places FILE, --events FILE or --db PATH")
        }
        if let defaultRadius, !((DistanceText.meters(from: defaultRadius) ?? 0) > 0) {
            throw ValidationError("--radius expects a distance above 0 like 150, 150m or 1.2km, got '\(defaultRadius)'")
        }
        if let threads { try OptionRange.check("--threads", threads, in: 1...256) }
        try OptionRange.check("--batch-bytes", batchBytes, atLeast: 1)
    }

    func run() throws {
        let started = ContinuousClock.now
        let workers = threads ?? ProcessInfo.processInfo.activeProcessorCount
        var data = CheckInReferenceData(defaultRadiusMeters: defaultRadius.flatMap { DistanceText.meters(from: $0) })
        data.workers = workers
        if let storePath { try data.loadStore(path: storePath) }
        for file in placeFiles { try data.loadPlaces(path: file) }
        for file in eventFiles { try data.loadEvents(path: file) }
        for file in joinFiles { try data.loadJoins(path: file) }
        let validator = CheckInValidator(places: data.places, events: data.events, joins: data.joins,
                                         model: model, accuracyPolicy: accuracyPolicy)
        let placeCount = data.places.count, eventCount = data.events.count
        data.places = []
        data.events = []
        data.joins = nil
        let loaded = ContinuousClock.now

        let sink = try CheckInOutputFile(path: out)
        let countsVisits = stats || statsOut != nil
        // Opened now, so that a path it cannot write fails the run before the work, not after it.
        let statsSink = countsVisits ? try statsOut.map { try OutputSink(path: $0) } ?? .standardError() : nil
        let format = inputFormat ?? CheckInInputFormat.detect(path: checkInFile)
        let batch = CheckInBatchValidator(validator: validator, inputFormat: format, outputFormat: self.format,
                                          countsVisits: countsVisits, workers: workers)
        let input = try CheckInBatchInput(path: checkInFile, batchBytes: batchBytes)
        // The output's header goes out with the first rows (or at the end): a run refused for its input's
        // header writes nothing, to standard output either.
        var header = self.format == .csv ? Array(CheckInOutputFormat.csvHeader.utf8) : []
        var writeError: Error?
        try batch.run(input: input) { bytes in
            if writeError == nil {
                do {
                    if !header.isEmpty { try sink.write(header); header = [] }
                    try sink.write(bytes)
                } catch { writeError = error }
            }
        }
        if let writeError { throw writeError }
        if !header.isEmpty { try sink.write(header) }
        try sink.commit()
        let finished = ContinuousClock.now

        var summary = CheckInSummary(rows: batch.rows, counts: batch.counts)
        summary.placeCount = placeCount
        summary.eventCount = eventCount
        summary.skippedReferenceRows = data.skippedCount
        summary.skippedMessages = data.skippedMessages + validator.ignoredMessages
        summary.malformedMessages = batch.malformedMessages
        summary.loadSeconds = seconds(loaded - started)
        summary.validateSeconds = seconds(finished - loaded)
        summary.pairCount = batch.ledgers.reduce(0) { $0 + $1.pairCount }
        summary.ledgerBytes = batch.ledgers.reduce(0) { $0 + $1.memoryBytes }
        summary.workers = workers
        Terminal.writeError(summary.text)
        if ProcessInfo.processInfo.environment["CAIRN_CHECKINS_PHASES"] != nil {
            let names = ["judge", "settle", "render", "write", "between", "read"]
            Terminal.writeError("  phases (wall s): " + zip(names, batch.phaseSeconds).map { "\($0) \(String(format: "%.2f", $1))" }.joined(separator: ", ") + "\n")
        }

        if let statsSink {
            let rows = CheckInLedger.placeStats(batch.ledgers)
            statsSink.write("place_id,visits,visitors,top_visitor,top_visitor_visits\n")
            for row in rows {
                statsSink.write("\(TextEscaping.csvField(validator.placeId(at: row.placeIndex))),\(row.visits),\(row.visitors),\(TextEscaping.csvField(row.topVisitor)),\(row.topVisitorVisits)\n")
            }
            statsSink.flush()
        }
        if failOnInvalid, summary.invalid > 0 { throw ExitCode(2) }
    }

    private func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

extension CheckInValidator {
    /// Messages about rows dropped while building (repeated ids, joins to unknown events).
    var ignoredMessages: [String] {
        var messages: [String] = []
        if ignoredPlaces > 0 { messages.append("\(ignoredPlaces) places with an id already taken (the first kept)") }
        if ignoredEvents > 0 { messages.append("\(ignoredEvents) events with an id already taken (the first kept)") }
        if ignoredJoins > 0 { messages.append("\(ignoredJoins) joins naming an unknown event") }
        return messages
    }
}

/// The summary written to standard error after a run.
struct CheckInSummary {
    let rows: Int
    let counts: [Int]
    var placeCount = 0
    var eventCount = 0
    var skippedReferenceRows = 0
    var skippedMessages: [String] = []
    var malformedMessages: [String] = []
    var loadSeconds = 0.0
    var validateSeconds = 0.0
    var pairCount = 0
    var ledgerBytes = 0
    var workers = 1

    var valid: Int { counts.first ?? 0 }
    var invalid: Int { rows - valid }

    var text: String {
        var lines: [String] = []
        let total = loadSeconds + validateSeconds
        let rate = total > 0 ? Int(Double(rows) / total) : 0
        lines.append("checkins: \(Terminal.grouped(rows)) rows in \(String(format: "%.2f", total)) s (\(Terminal.grouped(rate)) rows/s end to end; loading \(Terminal.grouped(placeCount)) places and \(Terminal.grouped(eventCount)) events took \(String(format: "%.2f", loadSeconds)) s, validating \(String(format: "%.2f", validateSeconds)) s on \(workers) threads)")
        func row(_ name: String, _ count: Int) -> String {
            let share = rows > 0 ? String(format: "%6.2f %%", 100 * Double(count) / Double(rows)) : ""
            return "  \(name.padding(toLength: 20, withPad: " ", startingAt: 0))\(Terminal.grouped(count).leftPadded(14))  \(share)"
        }
        lines.append(row("valid", valid))
        lines.append(row("invalid", invalid))
        for (ordinal, name) in verdictNames.enumerated().dropFirst() where counts[ordinal] > 0 {
            lines.append(row("  " + name, counts[ordinal]))
        }
        lines.append("  duplicate state: \(Terminal.grouped(pairCount)) (user, event) pairs, \(Terminal.bytes(Int64(ledgerBytes)))")
        for message in malformedMessages { lines.append("  malformed: \(message)") }
        if (counts.count > 10 ? counts[10] : 0) > malformedMessages.count {
            lines.append("  (\(Terminal.grouped(counts[10] - malformedMessages.count)) more malformed rows)")
        }
        if skippedReferenceRows > 0 || !skippedMessages.isEmpty {
            lines.append("  reference rows skipped: \(Terminal.grouped(skippedReferenceRows))")
            for message in skippedMessages { lines.append("    \(message)") }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension String {
    /// The string padded with spaces on the left to `width`.
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}

/// Where the verdict rows go: a file or standard output, written with `write(2)` straight from the rendered
/// batches (no intermediate buffer).
///
/// A file is written under a temporary name beside it and renamed into place by `commit()`, once the run has
/// completed: a run that fails (a missing input, a bad header, a full disk) leaves an existing file untouched,
/// and `--out` may even name an input.
final class CheckInOutputFile {
    private let descriptor: Int32
    private let name: String
    /// The temporary file being written, and the path it becomes; nil for standard output.
    private let paths: (temporary: String, final: String)?
    private var committed = false

    /// Opens a temporary file beside `path` (a device or a pipe such as `/dev/stdout` in place: there is nothing
    /// to keep or rename), or standard output when nil or `-`.
    init(path: String?) throws {
        guard let path, path != "-" else {
            descriptor = 1
            name = "standard output"
            paths = nil
            return
        }
        var info = stat()
        let inPlace = stat(path, &info) == 0 && (info.st_mode & S_IFMT) != S_IFREG
        paths = inPlace ? nil : (path + ".partial-\(getpid())", path)
        // open returns -1 and sets errno on failure.
        let fd = if let paths { open(paths.temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644) } else { open(path, O_WRONLY) }
        guard fd >= 0 else { throw CLIError("\(path): cannot write: \(String(cString: strerror(errno)))") }
        descriptor = fd
        name = path
    }

    /// Closes the file and renames it into place.
    func commit() throws {
        guard let paths, !committed else { return }
        committed = true
        // close and rename return 0, or -1 with errno.
        let closed = close(descriptor) == 0
        guard closed, rename(paths.temporary, paths.final) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(paths.temporary)
            throw CLIError("\(name): cannot write: \(reason)")
        }
    }

    deinit {
        if committed { return } // closed and renamed
        if descriptor > 2 { close(descriptor) }
        // Not committed: the run failed; the temporary file goes and any file at the final path stays as it was.
        if let paths { unlink(paths.temporary) }
    }

    /// Writes all of `bytes`.
    func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var offset = 0
            while offset < raw.count {
                // write returns the bytes written, or -1 with errno (EINTR: retry).
                let n = Glibc.write(descriptor, base + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw CLIError("\(name): cannot write: \(String(cString: strerror(errno)))")
                }
                offset += n
            }
        }
    }
}
