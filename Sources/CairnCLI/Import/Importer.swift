import CairnCore
import CairnGEOS
import CairnIO
import CairnStore

/// What one import run did.
struct ImportSummary: Equatable {
    /// Rows that became features (a duplicate id counts once per row).
    var imported = 0
    /// Rows refused, each reported with its line.
    var rejected = 0
    /// Rows whose id appeared earlier in the same file (the last row wins).
    var duplicateIds = 0
    /// What was done with coordinate systems, a line per file that named one (`FILE: coordinates from EPSG:2263 ...`).
    var coordinateSystemNotes: [String] = []
    /// Invalid polygons repaired by `--make-valid`.
    var repairedShapes = 0
    /// Shape coordinates within `Shape.edgeToleranceDegrees` beyond the valid range, taken as its edge.
    var clampedCoordinates = 0

    /// `imported N, rejected M`, the line the CLI ends with (with repairs and coordinates taken as the edge, when any).
    var line: String {
        var text = "imported \(imported), rejected \(rejected)"
        if duplicateIds > 0 { text += " (\(duplicateIds) duplicate ids: the last row of each wins)" }
        return text + FeatureShapeCheck.summaryNotes(repaired: repairedShapes, clamped: clampedCoordinates)
    }
}

/// Reads input files and writes their features into the store, all in one transaction.
///
/// Good rows are kept when bad rows sit beside them; every bad row is reported. When a file cannot be read,
/// or in strict mode at the first bad row, the transaction rolls back and nothing is written.
struct Importer {
    /// Features written per upsert inside the transaction: one batch of the reading thread.
    static let batchSize = RecordPipeline.batchRecords

    let options: ImportOptions
    let strict: Bool
    /// Receives every rejected row, in file order.
    let reportRejection: (RowRejection) -> Void
    /// Receives warnings (duplicate ids, files without rows).
    let warn: (String) -> Void
    /// Whether to draw progress bars.
    let showProgress: Bool
    /// Whether an invalid polygon is repaired (GEOS's make-valid) instead of rejected.
    var makeValid = false

    /// Stops a strict run at the first rejected row.
    struct StrictStop: Error { let rejection: RowRejection }

    /// Imports `files` into `store`.
    /// - Throws: `InputError` for an unreadable file, `StrictStop` in strict mode, or a store error; nothing is
    ///   written then.
    /// - Complexity: O(n) in the rows read; memory is one batch and the batches read ahead (`RecordPipeline`), a
    ///   64 KiB piece of the rows' places (the rest in a scratch file) and a bit per stored row replaced (see
    ///   `RunDuplicateIds`, which also tells repeated ids), plus with a place lookup at most two windows of
    ///   `RecordPipeline.rowsInFlight` locations and a bounded cache (see `ImportedPlaces`); the R*Tree is packed at
    ///   commit in bounded memory (see `FeatureStoreWriter`).
    func run(files: [String], format: InputFormat?, into store: FeatureStore) throws -> ImportSummary {
        var summary = ImportSummary()
        var options = self.options
        var imported: ImportedPlaces?
        // The reading thread asks the store through the write transaction's thread (`RecordPipeline`).
        let relay = UncheckedBox<RecordPipeline?>(nil)
        if let lookup = options.placeLookup {
            // Through the run's own transaction: the store's lookup sees only what was there before the run began.
            // The windows cover every row read but not yet upserted (`RecordPipeline.rowsInFlight`).
            let places = ImportedPlaces(recentCapacity: RecordPipeline.rowsInFlight, outside: lookup)
            options.placeLookup = { id in
                guard let pipeline = relay.value else { return places.place(id: id) }
                return pipeline.onWriterThread { places.place(id: id) }
            }
            imported = places
        }
        var duplicates = RunDuplicateIds(storePath: store.path)
        let validator = UncheckedBox<ShapeValidator?>(nil)
        try store.write { writer in
            imported?.attach(writer)
            defer { imported?.detach() }
            for file in files {
                duplicates.beginFile(file)
                try importFile(file, format: format, options: options, writer: writer, imported: imported, relay: relay,
                               duplicates: &duplicates, validator: validator, summary: &summary)
            }
        }
        if let warning = duplicates.warning { warn(warning) }
        return summary
    }

    /// Imports one file: a `RecordPipeline` reads it (records built, shapes checked, places recorded) on its own
    /// thread while this one upserts, reports and counts in file order, as a loop over the file would.
    private func importFile(_ file: String, format: InputFormat?, options: ImportOptions, writer: FeatureStoreWriter,
                            imported: ImportedPlaces?, relay: UncheckedBox<RecordPipeline?>, duplicates: inout RunDuplicateIds,
                            validator: UncheckedBox<ShapeValidator?>, summary: inout ImportSummary) throws {
        let reader = try openFeatureReader(path: file, format: format, options: options)
        let progress = ProgressBar(label: "importing \(file)", enabled: showProgress)
        var rows = 0
        var readRows = 0
        let total = reader.fileSizeBytes
        let pipeline = RecordPipeline(threaded: file != ByteSource.standardInputPath) { [self] batch in
            do {
                while batch.recordCount < RecordPipeline.batchRecords {
                    guard let record = try reader.next() else {
                        batch.isLast = true
                        break
                    }
                    readRows += 1
                    batch.recordCount += 1
                    switch try checkRecord(record, file: file, record: readRows, validator: validator, batch: &batch) {
                    case .feature(let feature, let line):
                        imported?.record(feature)
                        batch.features.append(feature)
                        batch.lines.append(line)
                    case .rejected(let rejection):
                        batch.rejections.append(rejection)
                    }
                }
            } catch {
                batch.error = error
                batch.isLast = true
            }
            batch.bytesConsumed = reader.bytesConsumed
        }
        relay.value = pipeline
        defer {
            pipeline.finish()
            relay.value = nil
        }
        pipeline.start()
        while let read = pipeline.next() {
            summary.repairedShapes += read.repairedShapes
            summary.clampedCoordinates += read.clampedCoordinates
            rows += read.recordCount
            // A strict run stops at its first rejection, and rolls back: its batch's features need no upsert.
            if strict, let rejection = read.rejections.first {
                summary.rejected += 1
                reportRejection(rejection)
                throw StrictStop(rejection: rejection)
            }
            if !read.features.isEmpty { try duplicates.upsert(read.features, lines: read.lines, writer: writer) }
            summary.imported += read.features.count
            summary.rejected += read.rejections.count
            for rejection in read.rejections { reportRejection(rejection) }
            if let error = read.error { throw error }
            if rows & 1023 == 0 { progress.update(done: read.bytesConsumed, total: total, rows: rows) }
        }
        pipeline.finish()
        summary.coordinateSystemNotes += reader.coordinateSystemNotes
        let repeated = duplicates.endFile()
        summary.duplicateIds += repeated.repeats
        if let warning = repeated.warning { warn(warning) }
        progress.finish(rows: rows)
        if rows == 0 { warn("\(file): no data rows (the file has a header or structure but no records)") }
    }

    /// `record` as the writer takes it: a feature whose shape is refused becomes a rejection naming the geometry,
    /// a repaired one is counted in `batch`. `record` is the record's place in its file.
    private func checkRecord(_ record: ImportRecord, file: String, record number: Int,
                             validator: UncheckedBox<ShapeValidator?>, batch: inout RecordPipeline.Batch) throws -> ImportRecord {
        guard case .feature(var feature, let line) = record, feature.shape != nil else { return record }
        if let problem = try checkShape(of: &feature, record: number, validator: &validator.value,
                                        repaired: &batch.repairedShapes, clamped: &batch.clampedCoordinates) {
            return .rejected(RowRejection(file: file, line: line, field: "geometry", reason: problem.reason))
        }
        return .feature(feature, line: line)
    }

    /// Replaces `feature` by `checkedShape(...)`'s feature and counts what it changed, or returns the problem.
    /// Not inlined: kept out of the loop, the shape's copies of the feature (over 128 bytes, so memcpy calls) do not
    /// reach the point-only path.
    @inline(never)
    private func checkShape(of feature: inout Feature, record: Int, validator: inout ShapeValidator?,
                            repaired: inout Int, clamped: inout Int) throws -> ShapeProblem? {
        guard let shape = feature.shape else { return nil }
        switch try checkedShape(shape, of: feature, record: record, validator: &validator) {
        case .success(let checked):
            if checked != feature { repaired += 1 }
            feature = checked
            clamped += shape.clampedVertexCount
            return nil
        case .failure(let problem):
            return problem
        }
    }

    /// Why a shape was refused, said as a rejection's reason.
    struct ShapeProblem: Error { let reason: String }

    /// `feature` as it is when its polygons are valid (GEOS's rules), repaired with `--make-valid`, or the problem:
    /// the one rule of every way in (`FeatureShapeCheck`, which the PostgreSQL import and the server's writes use).
    /// `record` is the record's place in its file (a feature's number in a FeatureCollection). The validator, one
    /// GEOS context, is made at the first polygon of the run.
    /// - Complexity: O(n log n) in the shape's positions for a polygon; O(1) for points and lines.
    private func checkedShape(_ shape: Shape, of feature: Feature, record: Int,
                              validator: inout ShapeValidator?) throws -> Result<Feature, ShapeProblem> {
        guard shape.kind.isAreal else { return .success(feature) }
        let checker = try validator ?? ShapeValidator()
        validator = checker
        return FeatureShapeCheck.checked(feature, validator: checker, makeValid: makeValid)
            .mapError { ShapeProblem(reason: $0.importReason(record: record)) }
    }
}
