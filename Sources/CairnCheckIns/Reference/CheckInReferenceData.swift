import CairnCore
import CairnIO
import CairnStore
import Dispatch
import Foundation

/// Loads what check-ins are judged against: places, events and joins, from CSV (read directly as bytes,
/// the fast path), other formats (through `openFeatureReader`) or the store.
///
/// A bad row in these files is skipped and reported (first few messages, then a count); it does not stop the run.
/// Load every file, then build the rule's tables with `makeValidator` (the loaded arrays may then be dropped).
public struct CheckInReferenceData: Sendable {
    /// Radius for places without one, metres (nil: such places are skipped and reported).
    public var defaultRadiusMeters: Double?
    /// Threads for parsing CSV files.
    public var workers = 1
    /// The places read so far, in file order, ids as bytes (one arena, no `String` each).
    package var placeRows = CheckInPlaceRows()
    /// The events read so far, in file order, ids as bytes.
    package var eventRows = CheckInEventRows()
    /// The places read so far, in file order.
    /// - Complexity: O(n) in the places' ids, to read or to set (they are kept as bytes, `placeRows`).
    public var places: [CheckInPlace] {
        get { placeRows.places }
        set { placeRows = CheckInPlaceRows(newValue) }
    }
    /// The events read so far, in file order.
    /// - Complexity: O(n) in the events' ids, to read or to set (they are kept as bytes, `eventRows`).
    public var events: [CheckInEvent] {
        get { eventRows.events }
        set { eventRows = CheckInEventRows(newValue) }
    }
    /// The joins read so far; nil when no joins file was given (then no check-in needs a join).
    public var joins: [CheckInJoin]?
    /// Skipped rows: messages (the first few, with file and line) and the count.
    public private(set) var skippedMessages: [String] = []
    /// How many reference rows were skipped.
    public private(set) var skippedCount = 0
    /// Whether each of `skippedMessages` is a notice (kept whatever the count) rather than a skipped row's.
    private var noticeFlags: [Bool] = []
    /// How many place files of areas were read by the areas' fast read (the rest by the feature reader); for tests.
    private(set) var areaFilesReadFast = 0

    /// Nothing loaded yet.
    /// - Parameter defaultRadiusMeters: the radius of places that have none (nil: such places are skipped).
    /// - Complexity: O(1).
    public init(defaultRadiusMeters: Double?) {
        self.defaultRadiusMeters = defaultRadiusMeters
    }

    /// The rule's tables for what was loaded (`CheckInValidator`: repeated ids keep their first row).
    /// - Complexity: O(p + e + j) for p places, e events and j joins.
    public func makeValidator(model: DistanceModel = .wgs84, accuracyPolicy: CheckInAccuracyPolicy = .ignore) -> CheckInValidator {
        CheckInValidator(placeRows: placeRows, eventRows: eventRows, joins: joins, model: model, accuracyPolicy: accuracyPolicy)
    }

    private mutating func skip(_ message: String) {
        skippedCount += 1
        if skippedMessages.count < 10 {
            skippedMessages.append(message)
            noticeFlags.append(false)
        }
    }

    /// Something the user should know that skipped no row (an empty file).
    private mutating func notice(_ message: String) {
        skippedMessages.append(message)
        noticeFlags.append(true)
    }

    /// Reads place files and event files as `loadPlaces` on each place file and then `loadEvents` on each event
    /// file would, with the places and the events read at once (each on `workers` threads): nothing is shared
    /// until the events' rows are appended, so the two files' serial stretches (the first batch, the joining of
    /// pieces) overlap. Messages come in that order; a failure is the first in that order's.
    /// - Throws: `CheckInError` as `loadPlaces` and `loadEvents` do.
    /// - Complexity: O(n) in the files' bytes.
    public mutating func loadPlacesAndEvents(placePaths: [String], eventPaths: [String]) throws(CheckInError) {
        let parts = [CheckInBuildBox(Result<CheckInReferenceData, CheckInError>.success(self)),
                     CheckInBuildBox(Result<CheckInReferenceData, CheckInError>.success(Self(sharingSettingsOf: self)))]
        DispatchQueue.concurrentPerform(iterations: 2) { part in
            parts[part].value = parts[part].value.flatMap { data in
                var data = data
                do throws(CheckInError) {
                    if part == 0 {
                        for path in placePaths { try data.loadPlaces(path: path) }
                    } else {
                        for path in eventPaths { try data.loadEvents(path: path) }
                    }
                } catch { return .failure(error) }
                return .success(data)
            }
        }
        var loaded = try parts[0].value.get()
        let events = try parts[1].value.get()
        loaded.eventRows.append(contentsOf: events.eventRows)
        for (message, isNotice) in zip(events.skippedMessages, events.noticeFlags) {
            if isNotice { loaded.notice(message) } else { loaded.skip(message) }
        }
        loaded.skippedCount += events.skippedCount - events.noticeFlags.filter { !$0 }.count
        self = loaded
    }

    /// Nothing loaded, with the settings of `other` (default radius, workers).
    private init(sharingSettingsOf other: Self) {
        self.init(defaultRadiusMeters: other.defaultRadiusMeters)
        workers = other.workers
    }

    /// Reports the skipped rows a parallel CSV read kept messages for, and counts the rest.
    /// - Complexity: O(messages kept).
    private mutating func reportSkips<Rows>(of rows: ParsedReferenceRows<Rows>) {
        for message in rows.skipped { skip(message) }
        skippedCount += rows.skippedCount - rows.skipped.count
    }

    // MARK: - Places

    /// Reads places (id, latitude, longitude, radius) from CSV, JSON lines or GeoJSON (`.gz` too). A place whose
    /// geometry is a Polygon or MultiPolygon (GeoJSON, or a CSV `geometry`/`wkt`/`wkb` column) keeps it as its
    /// area, which then decides its check-ins (no radius needed); a CSV file with a geometry column is read by
    /// the feature reader (`openFeatureReader`) instead of the byte-level fast path, which knows only circles.
    /// - Throws: `CheckInError` when the file cannot be read or its header lacks id, latitude or longitude.
    /// - Complexity: O(n) in the file's bytes, CSV on `workers` threads.
    public mutating func loadPlaces(path: String) throws(CheckInError) {
        try CheckInError.wrapping { try loadPlacesUntyped(path: path) }
    }

    private mutating func loadPlacesUntyped(path: String) throws {
        if InputFormat.detect(path: path) == .csv {
            let defaultRadius = defaultRadiusMeters
            let isTabSeparated = Self.isTabSeparated(path)
            let rows = try ReferenceCSVReader.parallelCSVRows(path: path, workers: workers) { header -> PlaceLayout? in
                // A geometry column: the areas' fast read when the header is of its form, else no layout, so that
                // no row is read twice (the feature reader reads them).
                guard PlaceColumns.geometryPosition(in: header) >= 0 else { return PlaceColumns(header).map(PlaceLayout.circles) }
                return isTabSeparated ? nil : AreaPlaceColumns(header).map(PlaceLayout.areas)
            } row: { (layout: PlaceLayout, scanner: CheckInCSVScanner, rows: inout CheckInPlaceRows) -> String? in
                guard case .circles(let columns) = layout else {
                    guard case .areas(let columns) = layout else { return nil }
                    return Self.areaRow(columns, scanner, &rows)
                }
                let idField = scanner.field(columns.id)
                guard idField.count > 0 else { return "missing id" }
                guard !idField.hasIdControlCharacters else { return Self.controlCharacterMessage(idField.text) }
                guard let center = Self.coordinate(scanner.field(columns.latitude), scanner.field(columns.longitude)) else {
                    return "bad coordinate"
                }
                guard let radius = Self.radius(scanner.field(columns.radius), default: defaultRadius),
                      let circle = try? Circle(center: center, radiusMeters: radius) else {
                    return "missing radius, or not a distance above 0 (give --radius for a default)"
                }
                idField.withTextBytes { rows.append(id: $0, circle: circle) }
                return nil
            }
            guard let header = rows.header else { return notice("\(path): an empty file (no header): no places read") }
            if PlaceColumns.geometryPosition(in: header) >= 0 {
                // The fast read stands only when it took every row as the feature reader would (a row it declined
                // may be one the feature reader rejects, with its message): else the feature reader reads the file.
                guard rows.layoutFound, rows.skippedCount == 0, rows.headerIsPlain else { return try loadPlaceFeatures(path: path) }
                areaFilesReadFast += 1
            }
            guard rows.layoutFound else { throw PlaceColumns.missingColumnsError(path, header: header) }
            if placeRows.count == 0 { placeRows = rows.rows } else { placeRows.append(contentsOf: rows.rows) }
            reportSkips(of: rows)
            return
        }
        try loadPlaceFeatures(path: path)
    }

    /// Whether the feature reader reads `path` with tabs between fields (`.tsv`, `.tsv.gz`).
    private static func isTabSeparated(_ path: String) -> Bool {
        var base = path.lowercased()
        if base.hasSuffix(".gz") { base.removeLast(3) }
        return base.hasSuffix(".tsv")
    }

    /// A row of a places file whose places are areas (`AreaPlaceColumns`), read as the feature reader reads it
    /// (`CSVFeatureReader`, then `place(_:defaultRadiusMeters:)`): the id, the area (`AreaWKTScanner`, checked by
    /// `Shape(checking:)`), its representative point as the centre, radius 0 (unused). Nil when the row was
    /// appended; otherwise a reason, and the caller leaves the whole file to the feature reader: a row that is not
    /// plainly such a place (a field count other than the header's, a text that is not UTF-8, an id with spaces
    /// around it or control characters, a geometry of another form) may be one that reader rejects or reads
    /// otherwise, and its messages are the ones to give.
    /// - Complexity: O(n) in the row's bytes.
    private static func areaRow(_ columns: AreaPlaceColumns, _ scanner: CheckInCSVScanner, _ rows: inout CheckInPlaceRows) -> String? {
        let declined = "not a plain area row"
        guard scanner.fieldCount == columns.count else { return declined }
        for column in 0..<columns.count where column != columns.geometry {
            // The geometry is read only when it is ASCII (the scanner takes no other byte in a token or number).
            let field = scanner.field(column)
            guard field.raw.isASCII || String(validating: field.bytes, as: UTF8.self) != nil else { return declined }
        }
        let id = scanner.field(columns.id)
        guard let first = id.bytes.first, let last = id.bytes.last, first != 0x20, first != 0x09, last != 0x20, last != 0x09,
              !id.hasIdControlCharacters,
              let parts = AreaWKTScanner.parts(scanner.field(columns.geometry).bytes),
              let area = try? Shape(checking: parts), area.kind.isAreal,
              let circle = try? Circle(center: area.representativePoint, radiusMeters: 0) else { return declined }
        rows.append(id: id.raw, circle: circle, area: area)
        return nil
    }

    /// Reads places through the feature reader: a place with an area keeps it (no radius needed), another needs
    /// a radius (its own or the default).
    private mutating func loadPlaceFeatures(path: String) throws {
        try openFeatureReader(path: path, options: ImportOptions(kind: .place, defaultRadiusMeters: nil)).forEachRecord { feature in
            guard let place = Self.place(feature, defaultRadiusMeters: defaultRadiusMeters) else {
                skip("\(path): place \(feature.id) has no radius (give --radius for a default)")
                return
            }
            placeRows.append(place)
        } rejected: { skip($0.description) }
    }

    /// A feature as a place: with an area (a Polygon or MultiPolygon), the area, its centre the feature's location
    /// and its radius the feature's or none (0: unused); otherwise a circle of the feature's radius, or
    /// `defaultRadiusMeters`; nil without either.
    /// - Complexity: O(1) (the shape is shared).
    static func place(_ feature: Feature, defaultRadiusMeters: Double?) -> CheckInPlace? {
        if let shape = feature.shape, shape.kind.isAreal,
           let circle = try? Circle(center: feature.location, radiusMeters: feature.radiusMeters ?? 0) {
            return CheckInPlace(id: feature.id, circle: circle, shape: shape)
        }
        guard let radius = feature.radiusMeters ?? defaultRadiusMeters,
              let circle = try? Circle(center: feature.location, radiusMeters: radius) else { return nil }
        return CheckInPlace(id: feature.id, circle: circle)
    }

    // MARK: - Events

    /// Reads events (id, placeId or a location and radius, startTime, endTime) from CSV, JSON lines or GeoJSON.
    /// - Throws: `CheckInError` when the file cannot be read or its header lacks id, startTime or endTime.
    /// - Complexity: O(n) in the file's bytes, CSV on `workers` threads.
    public mutating func loadEvents(path: String) throws(CheckInError) {
        try CheckInError.wrapping { try loadEventsUntyped(path: path) }
    }

    private mutating func loadEventsUntyped(path: String) throws {
        if InputFormat.detect(path: path) == .csv {
            let defaultRadius = defaultRadiusMeters
            let rows = try ReferenceCSVReader.parallelCSVRows(path: path, workers: workers) { header in
                EventColumns(header)
            } row: { (columns: EventColumns, scanner: CheckInCSVScanner, rows: inout CheckInEventRows) -> String? in
                let idField = scanner.field(columns.id)
                guard idField.count > 0 else { return "missing id" }
                guard !idField.hasIdControlCharacters else { return Self.controlCharacterMessage(idField.text) }
                let start = scanner.field(columns.start).seconds
                let end = scanner.field(columns.end).seconds
                guard start.isFinite, end.isFinite,
                      let window = try? TimeWindow(start: Timestamp(secondsSince1970: start), end: Timestamp(secondsSince1970: end)) else {
                    return "event \(idField.text): missing or bad startTime/endTime, or end before start"
                }
                let placeField = scanner.field(columns.place)
                var circle: Circle?
                if let center = Self.coordinate(scanner.field(columns.latitude), scanner.field(columns.longitude)),
                   let radius = Self.radius(scanner.field(columns.radius), default: defaultRadius) {
                    circle = try? Circle(center: center, radiusMeters: radius)
                }
                idField.withTextBytes { id in
                    guard placeField.count > 0 else { return rows.append(id: id, placeId: nil, circle: circle, window: window) }
                    placeField.withTextBytes { rows.append(id: id, placeId: $0, circle: circle, window: window) }
                }
                return nil
            }
            guard let header = rows.header else { return notice("\(path): an empty file (no header): no events read") }
            guard rows.layoutFound else { throw EventColumns.missingColumnsError(path, header: header) }
            if eventRows.count == 0 { eventRows = rows.rows } else { eventRows.append(contentsOf: rows.rows) }
            reportSkips(of: rows)
            return
        }
        // An event given by its place id alone (no coordinates) is read as the CSV reader reads it: the place id,
        // no circle; the place is resolved when the validator is made.
        let placeReference = PlaceReferenceProbe()
        let options = ImportOptions(kind: .event, defaultRadiusMeters: nil, placeLookup: placeReference.lookup)
        try openFeatureReader(path: path, options: options).forEachRecord { feature in
            addEvent(feature, source: path, placeOnly: placeReference.take())
        } rejected: { rejection in
            _ = placeReference.take()
            skip(rejection.description)
        }
    }

    /// Adds an event; `placeOnly` is the place id of an event that had no coordinates of its own.
    private mutating func addEvent(_ feature: Feature, source: String, placeOnly: String? = nil) {
        guard let window = feature.timeWindow else {
            skip("\(source): event \(feature.id) has no time window")
            return
        }
        if let placeOnly {
            eventRows.append(CheckInEvent(id: feature.id, placeId: placeOnly, circle: nil, window: window))
            return
        }
        var placeId: String?
        // The first attribute (by name, for a deterministic choice) that the alias table calls a place id. An id
        // that reads as a number (`17`) was stored as one: its text is the number's, as the CSV reader reads it.
        for name in feature.attributes.keys.sorted() where FieldAlias.resolve(name) == .place {
            switch feature.attributes[name] {
            case .string(let value)? where !value.isEmpty: placeId = value
            case .number(let value)?: placeId = TextEscaping.jsonNumber(value)
            default: continue
            }
            break
        }
        let circle = (feature.radiusMeters ?? defaultRadiusMeters).flatMap { try? Circle(center: feature.location, radiusMeters: $0) }
        eventRows.append(CheckInEvent(id: feature.id, placeId: placeId, circle: circle, window: window))
    }

    // MARK: - Joins

    /// Reads joins (userId, eventId) from CSV; once any are loaded, a check-in for an event needs its user's join.
    /// - Throws: `CheckInError` when the file cannot be read, is not CSV, or its header lacks userId or eventId.
    /// - Complexity: O(n) in the file's bytes.
    public mutating func loadJoins(path: String) throws(CheckInError) {
        try CheckInError.wrapping { try loadJoinsUntyped(path: path) }
    }

    private mutating func loadJoinsUntyped(path: String) throws {
        var joins = self.joins ?? []
        defer { self.joins = joins }
        if InputFormat.detect(path: path) == .csv {
            var skipped: [String] = []
            let header = try ReferenceCSVReader.forEachCSVRecord(path: path) { header in
                JoinColumns(header)
            } row: { columns, scanner, line in
                guard let columns else { return }
                let user = scanner.field(columns.user).text, event = scanner.field(columns.event).text
                guard !user.isEmpty, !event.isEmpty else { skipped.append("\(path):\(line): missing userId or eventId"); return }
                if let bad = [user, event].first(where: TextEscaping.containsIdControlCharacters) {
                    skipped.append("\(path):\(line): \(Self.controlCharacterMessage(bad))"); return
                }
                joins.append(CheckInJoin(userId: user, eventId: event))
            } skip: { skipped.append($0) }
            guard let header else { return notice("\(path): an empty file (no header): no joins read") }
            guard JoinColumns(header) != nil else { throw JoinColumns.missingColumnsError(path, header: header) }
            for message in skipped { skip(message) }
            return
        }
        throw CheckInError("\(path): joins are read from CSV (userId,eventId)")
    }

    // MARK: - The store

    /// Places (every feature with a radius or an area, or the default radius for places and parks) and events
    /// from the store; a place with an area (a Polygon or MultiPolygon) is judged by it.
    /// - Throws: `CheckInError` when there is no store at `path` or it cannot be read.
    /// - Complexity: O(n) in the store's features.
    public mutating func loadStore(path: String) throws(CheckInError) {
        try CheckInError.wrapping { try loadStoreUntyped(path: path) }
    }

    private mutating func loadStoreUntyped(path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            throw CheckInError("no store at '\(path)'; import places and events first (cairn import FILE --db \(path))")
        }
        let store = try FeatureStore(path: path)
        try store.forEachFeature(kind: nil) { feature in add(feature, source: path) }
    }

    /// Adds a store's features as the store's are loaded (`loadStore`): events as events, features with a radius
    /// (or places and parks, given `defaultRadiusMeters`) as places. For a store read elsewhere (PostgreSQL).
    /// - Parameters:
    ///   - features: the store's features, in any order.
    ///   - source: named in messages about the features (the store's path or URL).
    /// - Complexity: O(n).
    public mutating func loadFeatures(_ features: some Sequence<Feature>, source: String) {
        for feature in features { add(feature, source: source) }
    }

    private mutating func add(_ feature: Feature, source: String) {
        if feature.kind == .event {
            addEvent(feature, source: source)
            return
        }
        let fallback = feature.kind == .place || feature.kind == .park ? defaultRadiusMeters : nil
        guard let place = Self.place(feature, defaultRadiusMeters: fallback) else { return }
        placeRows.append(place)
    }

    // MARK: - Reading

    /// Why a row whose id holds a control character is skipped (the id escaped).
    private static func controlCharacterMessage(_ id: String) -> String {
        "an id may not contain control characters (U+0000-U+001F, U+007F), got '\(TextEscaping.escapingControlCharacters(id))'"
    }

    private static func coordinate(_ latitude: CheckInField, _ longitude: CheckInField) -> Coordinate? {
        guard let lat = latitude.number, let lon = longitude.number else { return nil }
        return try? Coordinate(latitude: lat, longitude: lon)
    }

    /// A radius by import's rule: a number of metres or a distance with a unit, finite and above 0.
    private static func radius(_ field: CheckInField, default defaultRadiusMeters: Double?) -> Double? {
        if field.count == 0 { return defaultRadiusMeters }
        guard let value = field.number ?? DistanceText.meters(from: field.text),
              value.isFinite, value > 0 else { return nil }
        return value
    }
}
