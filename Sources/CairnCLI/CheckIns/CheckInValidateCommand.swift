import ArgumentParser
import CairnCheckIns
import CairnCore
import CairnIO
import Foundation

/// `cairn checkins validate`: a verdict and a reason for every check-in, streamed, on every core.
struct CheckInValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Judge every check-in: valid, or one reason why not.",
        discussion: """
            Output: one row per check-in, in input order: checkin_id,verdict,reason,distance_m,radius_m,place_id,event_id. \
            verdict is valid or invalid; reason is one of outside_radius, before_start, after_end, unknown_event, \
            unknown_place, not_joined, duplicate, invalid_coordinate, invalid_time, malformed_row, no_match, \
            place_mismatch (the check-in names an event and another place than the event's), outside_area. \
            distance_m is given for outside_radius: the exact distance from the place's centre, rounded up to the millimetre. \
            A place whose geometry is a Polygon or MultiPolygon is judged by its area instead of a circle (the area \
            decides over a radius; on the boundary is inside): outside it, outside_area, and distance_m is the \
            distance to its boundary, rounded up to the millimetre. \
            A check-in with neither an event nor a place is matched to the places whose circle or area contains it and \
            their events ongoing at its time. A summary (counts per reason, rows per second) goes to standard error. \
            Exit status: 0 when the run completed, 2 with --fail-on-invalid when a check-in was invalid, 1 when it could not run.
            """
    )

    @Option(name: .customLong("places"), help: ArgumentHelp("Places with a radius or a polygon (CSV, with a WKT/WKB geometry column or not, JSON lines or GeoJSON, .gz too); repeatable.", valueName: "file"))
    var placeFiles: [String] = []

    @Option(name: .customLong("events"), help: ArgumentHelp("Events: id, placeId (or location and radius), startTime, endTime; repeatable.", valueName: "file"))
    var eventFiles: [String] = []

    @Option(name: .customLong("joins"), help: ArgumentHelp("Who joined which event (CSV userId,eventId); when given, check-ins need a join.", valueName: "file"))
    var joinFiles: [String] = []

    @Option(name: .customLong("db"), help: ArgumentHelp("Also take places and events from this store (an SQLite file, or postgres://user@host:port/database).", valueName: "path"))
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

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Judge only the check-ins whose user falls in shard I of N: XXH64 of the user id's bytes (seed 0) mod N, plus 1. Runs 1/N to N/N over the same input give together one run's rows.", valueName: "I/N"))
    var shard: String?

    @Option(parsing: .unconditional, help: "Worker threads, 1 to 256 (default: the number of cores).")
    var threads: Int?

    @Option(name: .customLong("max-record-mib"), parsing: .unconditional,
            help: ArgumentHelp("The largest check-in record accepted, in MiB (at least one batch, 8 MiB); a larger one is one malformed_row.", valueName: "MiB"))
    var maxRecordMiB = 64

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
        if let shard, CheckInUserShard(shard) == nil {
            throw ValidationError("--shard expects I/N, whole numbers with 1 <= I <= N like 2/4, got '\(shard)'")
        }
        try OptionRange.check("--batch-bytes", batchBytes, atLeast: 1)
        try OptionRange.check("--max-record-mib", maxRecordMiB, in: 1...(1 << 20))
    }

    func run() throws {
        var guarded = OutputPathCheck()
        if let storePath { guarded.store(storePath) }
        for file in placeFiles { guarded.input(file, option: "--places") }
        for file in eventFiles { guarded.input(file, option: "--events") }
        for file in joinFiles { guarded.input(file, option: "--joins") }
        guarded.input(checkInFile, option: "--checkins")
        try guarded.check([("--out", out), ("--stats-out", statsOut)])
        let started = ContinuousClock.now
        let workers = threads ?? ProcessInfo.processInfo.activeProcessorCount
        var data = CheckInReferenceData(defaultRadiusMeters: defaultRadius.flatMap { DistanceText.meters(from: $0) })
        data.workers = workers
        if let storePath {
            if PostgresCompanion.isStoreURL(storePath) {
                data.loadFeatures(try PostgresCompanion.reader().features(storePath), source: storePath)
            } else {
                try data.loadStore(path: storePath)
            }
        }
        try data.loadPlacesAndEvents(placePaths: placeFiles, eventPaths: eventFiles)
        for file in joinFiles { try data.loadJoins(path: file) }
        let validator = data.makeValidator(model: model, accuracyPolicy: accuracyPolicy)
        // Freed by the process's exit, not area by area after the output (see `KeptUntilExit`).
        KeptUntilExit.keep(validator)
        let placeCount = data.placeRows.count, eventCount = data.eventRows.count
        data.placeRows = CheckInPlaceRows()
        data.eventRows = CheckInEventRows()
        data.joins = nil
        let loaded = ContinuousClock.now

        let output = try CheckInOutputFile(path: out)
        let countsVisits = stats || statsOut != nil
        // Opened now, so that a path it cannot write fails the run before the work, not after it.
        let statsSink = countsVisits ? try statsOut.map { try OutputSink(path: $0) } ?? .standardError() : nil
        let format = try inputFormat ?? CheckInInputFormat.detect(fileAt: checkInFile)
        let batch = CheckInBatchValidator(validator: validator, inputFormat: format, outputFormat: self.format,
                                          countsVisits: countsVisits, workers: workers)
        batch.userShard = shard.flatMap { CheckInUserShard($0) }
        try batch.run(input: try CheckInBatchInput(path: checkInFile, batchBytes: batchBytes, maxRecordBytes: maxRecordMiB << 20), output: output)
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
            statsSink.write("place_id,visits,visitors,top_visitor,top_visitor_visits\n")
            for row in batch.placeStats() {
                statsSink.write("\(TextEscaping.csvField(validator.placeId(at: row.placeIndex))),\(row.visits),\(row.visitors),\(TextEscaping.csvField(row.topVisitor)),\(row.topVisitorVisits)\n")
            }
            try statsSink.close()
        }
        if failOnInvalid, summary.invalid > 0 { throw ExitCode(2) }
    }

    private func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
