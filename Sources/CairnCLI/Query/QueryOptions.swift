import ArgumentParser
import CairnCore
import CairnIO
import CairnStore

/// How query results are printed: CairnIO's formats, so every front end writes the same bytes.
typealias ResultFormat = QueryResultFormat

extension QueryResultFormat: ExpressibleByArgument {}

/// The options every query command shares: the store, filters, output format, `--limit` and `--explain`.
struct QueryOptions: ParsableArguments {
    @OptionGroup var store: StoreOptions

    @OptionGroup var filters: FilterOptions

    @Option(help: "Output format.")
    var format: ResultFormat = .geojson

    @Option(help: ArgumentHelp("Write the results to this file instead of standard output (a name ending in .gz is written gzip-compressed).", valueName: "path"))
    var out: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("At most this many results, the first in the query's order (box: feature order; around, nearest, containing: nearest first).", valueName: "count"))
    var limit: Int?

    @Flag(help: "Print on stderr how the query ran: nodes visited, candidates, exact checks, time.")
    var explain = false

    @Option(name: .customLong("t-srs"), help: OutputCoordinateSystem.help)
    var outputSystem: String?

    @Option(help: ArgumentHelp("""
        Which engine answers: memory (Cairn's index of the store's features) or postgis (the query as SQL in \
        PostgreSQL/PostGIS, for a --db postgres:// store; WGS84 distances only, no --where with nearest).
        """, valueName: "engine"))
    var engine: QueryEngine = .memory

    func validate() throws {
        if engine == .postgis, !store.isPostgres {
            throw ValidationError("--engine postgis answers from a PostgreSQL store: give --db postgres://user@host:port/database")
        }
        if let limit { try OptionRange.check("--limit", limit, atLeast: 0) }
        _ = try OutputCoordinateSystem.transform(outputSystem)
    }

    @Flag(name: .customLong("no-snapshot"), help: "Build the index from the store, ignoring (and not writing) the snapshot file <db>.snapshot.")
    var noSnapshot = false

    /// The filter from `--kind` and `--where`.
    func filter() throws -> FeatureFilter { try filters.filter() }

    /// The store's index with a note on where it came from: from the snapshot next to the store while it is current,
    /// otherwise built from the store's features (and saved as the new snapshot); with `--no-snapshot`, always built
    /// from the store. The store chooses, maps and refreshes its snapshot.
    func loadIndexExplained() throws -> LoadedIndex {
        if store.isPostgres { return LoadedIndex(index: FeatureIndex(try store.postgresFeatures()), note: Self.postgresNote) }
        let storeIndex = StoreIndex(store: try store.open(create: false))
        if noSnapshot { return LoadedIndex(index: try storeIndex.build(), note: StoreIndex.Source.builtIgnoringSnapshot.note) }
        let loaded = try storeIndex.current()
        return LoadedIndex(index: loaded.index, note: loaded.source.note)
    }

    /// The `--explain` note for an index built from a PostgreSQL store (the URL left out: it may hold a password).
    static let postgresNote = "built from the PostgreSQL store (no snapshot)"

    /// Runs `query` on the store's index and prints its results (and, with `--explain`, how it ran). The results
    /// are decoded before anything is printed, so that an answer read from a damaged snapshot is replaced by one
    /// from a rebuilt index (`StoreIndex.answer`) instead of being printed. An empty answer says on stderr why, when
    /// the index can tell (`EmptyAnswerHint`, with the command's own `emptyHint`).
    /// `pushedDown` is the same query for `--engine postgis`, with the distance model it was asked in.
    func run(emptyHint: EmptyAnswerHint.CommandHint? = nil, pushedDown: (query: PushedDownQuery, model: DistanceModel)? = nil,
             _ query: (FeatureIndex, FeatureFilter, inout QueryStats) throws -> [QueryHit]) throws {
        var guarded = OutputPathCheck()
        guarded.store(store.path)
        try guarded.check(out, option: "--out")
        let filter = try filter()
        if engine == .postgis, let pushedDown {
            try runInPostGIS(pushedDown.query, model: pushedDown.model, filter: filter)
            return
        }
        let clock = ContinuousClock()
        let loadStart = clock.now
        var (queryStart, queryEnd) = (loadStart, loadStart)
        var stats = QueryStats()
        func answer(_ index: FeatureIndex) throws -> [QueryResultRow] {
            queryStart = clock.now
            stats = QueryStats()
            let hits = try query(index, filter, &stats).prefix(limit ?? .max)
            queryEnd = clock.now
            return hits.map { QueryResultRow(feature: index.features[$0.item], distanceMeters: $0.distanceMeters) }
        }
        let rows: [QueryResultRow], loaded: LoadedIndex
        if store.isPostgres {
            // The same index built from the same features in the same order as from SQLite: the same answer.
            let index = FeatureIndex(try store.postgresFeatures())
            (rows, loaded) = (try answer(index), LoadedIndex(index: index, note: Self.postgresNote))
        } else if noSnapshot {
            let storeIndex = StoreIndex(store: try store.open(create: false))
            let index = try storeIndex.build()
            (rows, loaded) = (try answer(index), LoadedIndex(index: index, note: StoreIndex.Source.builtIgnoringSnapshot.note))
        } else {
            let storeIndex = StoreIndex(store: try store.open(create: false))
            let answered = try storeIndex.answer(answer)
            (rows, loaded) = (answered.answer, LoadedIndex(index: answered.loaded.index, note: answered.loaded.source.note))
            // A snapshot refused (damaged, truncated, another version) is replaced silently otherwise: say so.
            if case .built(.refused(let error), _) = answered.loaded.source {
                Terminal.printError("warning: \(error); the index was rebuilt from the store")
            }
        }
        if rows.isEmpty, limit != 0 {
            for hint in EmptyAnswerHint.hints(index: loaded.index, filter: filter, command: emptyHint) {
                Terminal.printError("note: \(hint)")
            }
        }
        let sink = try OutputSink.forOption(out)
        QueryResultWriter(format: format).write(rows, coordinates: try OutputCoordinateSystem.coordinates(outputSystem, of: rows.lazy.map(\.feature)), to: sink)
        try sink.close()
        if explain {
            Terminal.printError("explain: \(Terminal.grouped(loaded.index.count)) features \(loaded.note) in \(Terminal.duration(queryStart - loadStart))")
            Terminal.printError("explain: query took \(Terminal.duration(queryEnd - queryStart)): \(stats); \(Terminal.grouped(rows.count)) results")
        }
    }
}

extension QueryOptions {
    /// Answers `query` with PostGIS (`--engine postgis`) and prints it as the in-memory engine would. The kinds are
    /// filtered in SQL and `--where` here (exact either way, since box, around and containing return every match).
    func runInPostGIS(_ query: PushedDownQuery, model: DistanceModel, filter: FeatureFilter) throws {
        guard model == .wgs84 else {
            throw CLIError("--engine postgis measures on the WGS84 ellipsoid only (PostGIS's sphere is not Cairn's): leave out --model sphere")
        }
        if case .nearest = query, !filter.predicates.isEmpty {
            throw CLIError("--engine postgis does not push --where down into nearest (the k nearest would have to be found again after it); use --kind, or --engine memory")
        }
        let clock = ContinuousClock()
        let start = clock.now
        let hits = try PostgresCompanion.reader().query(store.path, query, filter.kinds)
        let rows = hits.lazy.filter { filter.predicates.isEmpty || filter.matches($0.feature) }.prefix(limit ?? .max)
            .map { QueryResultRow(feature: $0.feature, distanceMeters: $0.distanceMeters) } as [QueryResultRow]
        let answered = clock.now
        let sink = try OutputSink.forOption(out)
        QueryResultWriter(format: format).write(rows, coordinates: try OutputCoordinateSystem.coordinates(outputSystem, of: rows.lazy.map(\.feature)), to: sink)
        try sink.close()
        if explain {
            Terminal.printError("explain: answered by PostGIS in \(Terminal.duration(answered - start)) (connection included); \(Terminal.grouped(rows.count)) results")
        }
    }
}

/// Parses numbers separated by commas, as in `--bbox -180,-85,180,85`.
func parseNumbers(_ text: String, count: Int, option: String, shape: String) throws -> [Double] {
    try validating { () throws(QueryArgumentError) in try QueryArgument.numbers(text, count: count, argument: option, shape: shape) }
}

/// Parses a latitude/longitude pair of options into a checked coordinate.
func parseCoordinate(latitude: Double, longitude: Double) throws -> Coordinate {
    try validating { () throws(QueryArgumentError) in try QueryArgument.coordinate(latitude: latitude, longitude: longitude, arguments: "--lat/--long") }
}

/// The result of `parse`, its `QueryArgumentError` (the message every front end shares) as a `ValidationError`.
func validating<T>(_ parse: () throws(QueryArgumentError) -> T) throws -> T {
    do {
        return try parse()
    } catch {
        throw ValidationError(error.description)
    }
}
