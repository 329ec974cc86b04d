import ArgumentParser
import CairnCLI
import CairnCore
import CairnGEOS
import CairnIO
import CairnPostgres
import Foundation

/// `cairn import FILE… --db postgres://…`, which `cairn import` runs (exec) when its `--db` is a PostgreSQL URL:
/// the root package's `cairn` links no NIO, so the PostgreSQL client lives here, beside `cairn-server`.
/// The rows are read by CairnIO's readers (the same validation, rejections and messages as the SQLite import) and
/// streamed with COPY in one transaction: every good row, or on a failure nothing. Polygons pass the SQLite
/// import's validity rule (`FeatureShapeCheck`: refused with GEOS's reason, or repaired with `--make-valid`).
struct PostgresImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cairn import",
        abstract: "Import features into a PostgreSQL store (what `cairn import --db postgres://…` runs).",
        discussion: """
            Every rejected row is reported on stderr as FILE:LINE: reason. The run ends with one line, \
            'imported N, rejected M'. Exit status: 0 when every row was imported, 3 when some rows were rejected \
            (the good rows are kept), 1 when the run failed (then nothing is written). An event naming its place \
            (placeId) without a location finds the place among the rows before it in the same run.
            """
    )

    @OptionGroup var input: ImportInputOptions

    @Option(name: .customLong("db"), help: ArgumentHelp("The PostgreSQL store.", valueName: "postgres://user@host:port/database"))
    var url: String

    @Option(name: .customLong("wait-seconds"), parsing: .unconditional, help: ArgumentHelp("Accepted for the SQLite import's sake: PostgreSQL orders writers itself.", valueName: "seconds"))
    var waitSeconds: Double?

    func validate() throws {
        do { _ = try PostgresStoreURL(url) } catch { throw ValidationError("--db: \(error)") }
    }

    /// Thrown from the row stream at the first rejected row with `--strict`.
    struct StrictStop: Error { let rejection: RowRejection }

    func run() async throws {
        let store = try await PostgresFeatureStore(url: try PostgresStoreURL(url))
        // Places of this run by id, for events that name their place only (the SQLite import also asks the store).
        let places = PlaceBook()
        let options = input.importOptions(placeLookup: { places.feature(id: $0) })
        var imported = 0, rejected = 0, repaired = 0, clamped = 0
        var pending = input.files[...]
        var reader: (any FeatureReader)?
        var file = "", record = 0 // the file being read, and the record's place in it (a feature's number)
        var stopped: StrictStop?
        var notes: [String] = []
        var shapes = FeatureShapeCheck(makeValid: input.makeValid)
        /// `read` as the SQLite import keeps it: a feature whose polygon is invalid becomes a rejection naming the
        /// geometry and the record, a repaired one is counted.
        func checked(_ read: ImportRecord, record: Int) throws -> ImportRecord {
            guard case .feature(let feature, let line) = read, let shape = feature.shape else { return read }
            switch try shapes.checked(feature) {
            case .success(let valid):
                if valid != feature { repaired += 1 }
                clamped += shape.clampedVertexCount
                return .feature(valid, line: line)
            case .failure(let invalid):
                return .rejected(RowRejection(file: file, line: line, field: "geometry", reason: invalid.importReason(record: record)))
            }
        }
        do {
            _ = try await store.importFeatures { () throws -> Feature? in
                while true {
                    if reader == nil {
                        guard let next = pending.popFirst() else { return nil }
                        reader = try openFeatureReader(path: next, format: input.format, options: options)
                        (file, record) = (next, 0)
                    }
                    guard let read = try reader?.next() else {
                        // A file's coordinate system, said as the SQLite import says it (`--s-srs`, a crs member).
                        notes += reader?.coordinateSystemNotes ?? []
                        reader = nil
                        continue
                    }
                    record += 1
                    switch try checked(read, record: record) {
                    case .feature(let feature, _):
                        imported += 1
                        if feature.kind == .place || feature.kind == .park { places.record(feature) }
                        return feature
                    case .rejected(let rejection):
                        rejected += 1
                        FileHandle.standardError.write(Data((rejection.description + "\n").utf8))
                        if input.strict {
                            stopped = StrictStop(rejection: rejection)
                            throw stopped ?? StrictStop(rejection: rejection)
                        }
                    }
                }
            }
        } catch {
            if let stopped {
                throw ValidationError("stopped at the first rejected row (\(stopped.rejection.file):\(stopped.rejection.line)) because of --strict; nothing was written")
            }
            FileHandle.standardError.write(Data("error: \(error); nothing was written\n".utf8))
            throw ExitCode(1)
        }
        await store.close()
        for note in notes { print(note) }
        print("imported \(imported), rejected \(rejected)" + FeatureShapeCheck.summaryNotes(repaired: repaired, clamped: clamped))
        if rejected > 0 { throw ExitCode(3) }
    }
}

/// The places read so far in one import, by id.
final class PlaceBook: @unchecked Sendable {
    private var byID: [String: Feature] = [:]
    private let lock = NSLock()
    func record(_ feature: Feature) { lock.withLock { byID[feature.id] = feature } }
    func feature(id: String) -> Feature? { lock.withLock { byID[id] } }
}
