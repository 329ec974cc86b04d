import ArgumentParser
import CairnCore
import CairnIO

/// What `cairn import` reads and how: the files and the options that turn their rows into features. One group for
/// both imports, into SQLite (`ImportCommand`) and into PostgreSQL (cairn-postgres's), so that they accept the same
/// options with the same help and checks, and read rows into the same features.
public struct ImportInputOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("""
        Input files; the format comes from the extension (.csv, .geojson, .geojsonseq, .jsonl, each optionally .gz). \
        '-' reads standard input (plain or gzip), whose format --format must name.
        """, valueName: "file"))
    public var files: [String]

    @Option(help: "The kind of every imported feature; without it a 'kind' column decides, else 'place'.")
    public var kind: FeatureKind?

    @Option(name: .customLong("id-column"), help: ArgumentHelp("The column holding ids (default: 'id'; without one, ids are FILE:LINE, FILE the path as given here). Ids may not contain control characters.", valueName: "name"))
    public var idColumn: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("The radius for rows without one: 150, 150m, 1.2km, 3mi.", valueName: "distance"))
    public var radius: String?

    @Option(help: "The input format, when the file extension does not say it (required for '-', standard input).")
    public var format: InputFormat?

    @Option(name: .customLong("max-record-mib"), help: ArgumentHelp("The largest record accepted, in MiB; a larger one is rejected alone.", valueName: "MiB"))
    public var maxRecordMiB = ImportOptions.defaultMaxRecordBytes >> 20

    @Option(name: .customLong("s-srs"), help: ArgumentHelp("""
        The coordinate reference system of the input's positions, as PROJ reads it: EPSG:3067, \
        urn:ogc:def:crs:EPSG::2263, a PROJ string with +type=crs, WKT. Positions are transformed into WGS84 \
        longitude/latitude (x is the easting or longitude, y the northing or latitude; CSV columns x/y or \
        easting/northing are read as such). Without it a GeoJSON file's legacy crs member is honoured; --s-srs \
        overrides it. A file whose positions cannot be degrees and that names no system is refused.
        """, valueName: "crs"))
    public var sourceCoordinateSystem: String?

    @Flag(help: "Stop at the first rejected row and write nothing.")
    public var strict = false

    @Flag(name: .customLong("no-progress"), help: "Do not draw a progress bar even on a terminal.")
    public var noProgress = false

    @Flag(name: .customLong("make-valid"), help: "Repair an invalid polygon (GEOS's make-valid) instead of rejecting it; the summary counts the repairs.")
    public var makeValid = false

    /// Options parsed from nothing (ArgumentParser's requirement).
    public init() {}

    public func validate() throws {
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

    /// The readers' options from these, with `placeLookup` for events that name their place only.
    /// - Complexity: O(1).
    public func importOptions(placeLookup: (@Sendable (String) -> Feature?)?) -> ImportOptions {
        ImportOptions(kind: kind, idColumn: idColumn, defaultRadiusMeters: radius.flatMap { DistanceText.meters(from: $0) },
                      placeLookup: placeLookup, maxRecordBytes: maxRecordMiB << 20, sourceCoordinateSystem: sourceCoordinateSystem)
    }
}
