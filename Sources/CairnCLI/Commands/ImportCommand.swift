import ArgumentParser
import Foundation
import CairnCore
import CairnIO
import CairnStore

extension FeatureKind: ExpressibleByArgument {}
extension InputFormat: ExpressibleByArgument {}

/// `cairn import FILE...`: validates every row and writes the good ones into the store.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import features from CSV, GeoJSON, GeoJSON text sequences or JSON lines (.gz too).",
        discussion: """
            Every rejected row is reported on stderr as FILE:LINE: reason. The run ends with one line, \
            'imported N, rejected M'. Exit status: 0 when every row was imported, 3 when some rows were rejected \
            (the good rows are kept), 1 when the run failed (then nothing is written). \
            With --db postgres://user@host:port/database the rows go to a PostgreSQL/PostGIS store instead, in one \
            COPY transaction (the Server package's cairn-postgres does it; docs/SERVER.md).
            """
    )

    @Argument(help: ArgumentHelp("""
        Input files; the format comes from the extension (.csv, .geojson, .geojsonseq, .jsonl, each optionally .gz). \
        '-' reads standard input (plain or gzip), whose format --format must name.
        """, valueName: "file"))
    var files: [String]

    @Option(help: "The kind of every imported feature; without it a 'kind' column decides, else 'place'.")
    var kind: FeatureKind?

    @Option(name: .customLong("id-column"), help: ArgumentHelp("The column holding ids (default: 'id'; without one, ids are FILE:LINE, FILE the path as given here). Ids may not contain control characters.", valueName: "name"))
    var idColumn: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("The radius for rows without one: 150, 150m, 1.2km, 3mi.", valueName: "distance"))
    var radius: String?

    @Option(help: "The input format, when the file extension does not say it (required for '-', standard input).")
    var format: InputFormat?

    @Option(name: .customLong("max-record-mib"), help: ArgumentHelp("The largest record accepted, in MiB; a larger one is rejected alone.", valueName: "MiB"))
    var maxRecordMiB = ImportOptions.defaultMaxRecordBytes >> 20

    @Option(name: .customLong("s-srs"), help: ArgumentHelp("""
        The coordinate reference system of the input's positions, as PROJ reads it: EPSG:3067, \
        urn:ogc:def:crs:EPSG::2263, a PROJ string with +type=crs, WKT. Positions are transformed into WGS84 \
        longitude/latitude (x is the easting or longitude, y the northing or latitude; CSV columns x/y or \
        easting/northing are read as such). Without it a GeoJSON file's legacy crs member is honoured; --s-srs \
        overrides it. A file whose positions cannot be degrees and that names no system is refused.
        """, valueName: "crs"))
    var sourceCoordinateSystem: String?

    @Flag(help: "Stop at the first rejected row and write nothing.")
    var strict = false

    @Flag(name: .customLong("no-progress"), help: "Do not draw a progress bar even on a terminal.")
    var noProgress = false

    @Flag(name: .customLong("make-valid"), help: "Repair an invalid polygon (GEOS's make-valid) instead of rejecting it; the summary counts the repairs.")
    var makeValid = false

    @OptionGroup var store: StoreOptions

    func validate() throws {
        if !(1...(1 << 20)).contains(maxRecordMiB) {
            throw ValidationError("--max-record-mib must be between 1 and 1048576, got \(maxRecordMiB)")
        }
        if let radius, DistanceText.meters(from: radius).map({ $0 > 0 }) != true {
            throw ValidationError("--radius must be a distance greater than 0 (metres, or a unit: 150m, 1.2km, 3mi), got '\(radius)'")
        }
        let standardInputs = files.filter { $0 == ByteSource.standardInputPath }.count
        if standardInputs > 1 { throw ValidationError("'-' (standard input) can be read only once") }
        if standardInputs == 1, format == nil {
            throw ValidationError("reading standard input ('-') needs the format: pass --format \(InputFormat.allCases.map(\.rawValue).joined(separator: "|"))")
        }
        if let sourceCoordinateSystem, !CoordinateTransform.namesWGS84Degrees(sourceCoordinateSystem) {
            do throws(CoordinateTransformError) {
                _ = try CoordinateTransform.toWGS84(from: sourceCoordinateSystem)
            } catch {
                throw ValidationError("--s-srs: \(error)")
            }
        }
        if format == nil {
            for file in files where InputFormat.detect(path: file) == nil {
                throw ValidationError("cannot tell the format of '\(file)' from its extension; pass --format \(InputFormat.allCases.map(\.rawValue).joined(separator: "|"))")
            }
        }
    }

    func run() throws {
        if PostgresImport.isStoreURL(store.path) {
            // The arguments as given, after `cairn import`.
            let given = CommandLine.arguments.drop(while: { $0 != "import" }).dropFirst()
            try PostgresImport.exec(arguments: Array(given), environment: ProcessInfo.processInfo.environment)
        }
        let opened = try store.open(create: true)
        let options = ImportOptions(kind: kind, idColumn: idColumn, defaultRadiusMeters: radius.flatMap { DistanceText.meters(from: $0) },
                                    placeLookup: { id in try? opened.feature(id: id) }, maxRecordBytes: maxRecordMiB << 20,
                                    sourceCoordinateSystem: sourceCoordinateSystem)
        let importer = Importer(
            options: options,
            strict: strict,
            reportRejection: { Terminal.printError($0.description) },
            warn: { Terminal.printError("warning: " + $0) },
            showProgress: !noProgress && Terminal.standardErrorIsTerminal,
            makeValid: makeValid
        )
        let summary: ImportSummary
        do {
            summary = try importer.run(files: files, format: format, into: opened)
        } catch let stop as Importer.StrictStop {
            throw CLIError("stopped at the first rejected row (\(stop.rejection.file):\(stop.rejection.line)) because of --strict; nothing was written")
        } catch let error as InputError {
            throw CLIError("\(error); nothing was written")
        }
        for note in summary.coordinateSystemNotes { print(note) }
        print(summary.line)
        if summary.rejected > 0 { throw ExitCode(3) }
    }
}
