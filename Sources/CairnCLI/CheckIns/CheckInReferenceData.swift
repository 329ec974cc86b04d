import CairnCore
import CairnIO
import CairnStore
import Dispatch
import Foundation

/// Loads what check-ins are judged against: places, events and joins, from CSV (read directly as bytes,
/// the fast path), other formats (through `openFeatureReader`) or the store.
///
/// A bad row in these files is skipped and reported (first few messages, then a count); it does not stop the run.
struct CheckInReferenceData {
    /// Radius for places without one, metres (nil: such places are skipped and reported).
    var defaultRadiusMeters: Double?
    /// Threads for parsing CSV files.
    var workers = 1
    var places: [CheckInPlace] = []
    var events: [CheckInEvent] = []
    var joins: [CheckInJoin]?
    /// Skipped rows: messages (the first few) and the count.
    var skippedMessages: [String] = []
    var skippedCount = 0

    init(defaultRadiusMeters: Double?) {
        self.defaultRadiusMeters = defaultRadiusMeters
    }

    private mutating func skip(_ message: String) {
        skippedCount += 1
        if skippedMessages.count < 10 { skippedMessages.append(message) }
    }

    /// Something the user should know that skipped no row (an empty file).
    private mutating func notice(_ message: String) {
        skippedMessages.append(message)
    }

    // MARK: - Places

    mutating func loadPlaces(path: String) throws {
        if InputFormat.detect(path: path) == .csv {
            let defaultRadius = defaultRadiusMeters
            let rows = try parallelCSVRows(path: path, workers: workers) { header in
                PlaceColumns(header)
            } row: { (columns: PlaceColumns, scanner: CheckInCSVScanner, line: Int) -> ReferenceRow<CheckInPlace> in
                let id = scanner.field(columns.id).text
                guard !id.isEmpty else { return .skip("missing id") }
                guard let center = Self.coordinate(scanner.field(columns.latitude), scanner.field(columns.longitude)) else {
                    return .skip("bad coordinate")
                }
                guard let radius = Self.radius(scanner.field(columns.radius), default: defaultRadius),
                      let circle = try? Circle(center: center, radiusMeters: radius) else {
                    return .skip("missing radius, or not a distance above 0 (give --radius for a default)")
                }
                return .item(CheckInPlace(id: id, circle: circle))
            }
            guard let header = rows.header else { return notice("\(path): an empty file (no header): no places read") }
            guard rows.layoutFound else { throw PlaceColumns.missingColumnsError(path, header: header) }
            if places.isEmpty { places = rows.items } else { places += rows.items }
            for message in rows.skipped { skip(message) }
            skippedCount += rows.skippedCount - rows.skipped.count
            return
        }
        try forEachFeature(path: path, kind: .place) { feature in
            guard let radius = feature.radiusMeters ?? defaultRadiusMeters,
                  let circle = try? Circle(center: feature.location, radiusMeters: radius) else {
                skip("\(path): place \(feature.id) has no radius (give --radius for a default)")
                return
            }
            places.append(CheckInPlace(id: feature.id, circle: circle))
        } rejected: { skip($0) }
    }

    // MARK: - Events

    mutating func loadEvents(path: String) throws {
        if InputFormat.detect(path: path) == .csv {
            let defaultRadius = defaultRadiusMeters
            let rows = try parallelCSVRows(path: path, workers: workers) { header in
                EventColumns(header)
            } row: { (columns: EventColumns, scanner: CheckInCSVScanner, line: Int) -> ReferenceRow<CheckInEvent> in
                let id = scanner.field(columns.id).text
                guard !id.isEmpty else { return .skip("missing id") }
                let start = CheckInTimeText.seconds(scanner.field(columns.start).bytes)
                let end = CheckInTimeText.seconds(scanner.field(columns.end).bytes)
                guard start.isFinite, end.isFinite,
                      let window = try? TimeWindow(start: Timestamp(secondsSince1970: start), end: Timestamp(secondsSince1970: end)) else {
                    return .skip("event \(id): missing or bad startTime/endTime, or end before start")
                }
                let placeField = scanner.field(columns.place)
                var circle: Circle?
                if let center = Self.coordinate(scanner.field(columns.latitude), scanner.field(columns.longitude)),
                   let radius = Self.radius(scanner.field(columns.radius), default: defaultRadius) {
                    circle = try? Circle(center: center, radiusMeters: radius)
                }
                return .item(CheckInEvent(id: id, placeId: placeField.count > 0 ? placeField.text : nil, circle: circle, window: window))
            }
            guard let header = rows.header else { return notice("\(path): an empty file (no header): no events read") }
            guard rows.layoutFound else { throw EventColumns.missingColumnsError(path, header: header) }
            if events.isEmpty { events = rows.items } else { events += rows.items }
            for message in rows.skipped { skip(message) }
            skippedCount += rows.skippedCount - rows.skipped.count
            return
        }
        try forEachFeature(path: path, kind: .event) { feature in
            addEvent(feature, source: path)
        } rejected: { skip($0) }
    }

    private mutating func addEvent(_ feature: Feature, source: String) {
        guard let window = feature.timeWindow else {
            skip("\(source): event \(feature.id) has no time window")
            return
        }
        var placeId: String?
        for name in ["placeId", "place_id", "placeid", "place"] {
            if case .string(let value)? = feature.attributes[name], !value.isEmpty { placeId = value; break }
        }
        let circle = (feature.radiusMeters ?? defaultRadiusMeters).flatMap { try? Circle(center: feature.location, radiusMeters: $0) }
        events.append(CheckInEvent(id: feature.id, placeId: placeId, circle: circle, window: window))
    }

    // MARK: - Joins

    mutating func loadJoins(path: String) throws {
        var joins = self.joins ?? []
        defer { self.joins = joins }
        if InputFormat.detect(path: path) == .csv {
            var skipped: [String] = []
            let header = try forEachCSVRecord(path: path) { header in
                JoinColumns(header)
            } row: { columns, scanner, line in
                guard let columns else { return }
                let user = scanner.field(columns.user).text, event = scanner.field(columns.event).text
                guard !user.isEmpty, !event.isEmpty else { skipped.append("\(path):\(line): missing userId or eventId"); return }
                joins.append(CheckInJoin(userId: user, eventId: event))
            } skip: { skipped.append($0) }
            guard let header else { return notice("\(path): an empty file (no header): no joins read") }
            guard JoinColumns(header) != nil else { throw JoinColumns.missingColumnsError(path, header: header) }
            for message in skipped { skip(message) }
            return
        }
        throw CLIError("\(path): joins are read from CSV (userId,eventId)")
    }

    // MARK: - The store

    /// Places (every feature with a radius, or the default radius for places and parks) and events from the store.
    mutating func loadStore(path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            throw CLIError("no store at '\(path)'; import places and events first (cairn import FILE --db \(path))")
        }
        let store = try FeatureStore(path: path)
        try store.forEachFeature(kind: nil) { feature in
            if feature.kind == .event {
                addEvent(feature, source: path)
                return
            }
            let fallback = feature.kind == .place || feature.kind == .park ? defaultRadiusMeters : nil
            guard let radius = feature.radiusMeters ?? fallback,
                  let circle = try? Circle(center: feature.location, radiusMeters: radius) else { return }
            places.append(CheckInPlace(id: feature.id, circle: circle))
        }
    }

    // MARK: - Reading

    private static func coordinate(_ latitude: CheckInField, _ longitude: CheckInField) -> Coordinate? {
        guard let lat = CheckInNumberText.parse(latitude.bytes), let lon = CheckInNumberText.parse(longitude.bytes) else { return nil }
        return try? Coordinate(latitude: lat, longitude: lon)
    }

    /// A radius by import's rule: a number of metres or a distance with a unit, finite and above 0.
    private static func radius(_ field: CheckInField, default defaultRadiusMeters: Double?) -> Double? {
        if field.count == 0 { return defaultRadiusMeters }
        guard let value = CheckInNumberText.parse(field.bytes) ?? DistanceText.meters(from: field.text),
              value.isFinite, value > 0 else { return nil }
        return value
    }
}

/// Iterates a file's features through `openFeatureReader`; rejected rows go to `rejected`.
func forEachFeature(path: String, kind: FeatureKind, _ body: (Feature) -> Void, rejected: (String) -> Void) throws {
    let reader = try openFeatureReader(path: path, format: nil, options: ImportOptions(kind: kind, defaultRadiusMeters: nil))
    while let record = try reader.next() {
        switch record {
        case .feature(let feature, _): body(feature)
        case .rejected(let rejection): rejected(rejection.description)
        }
    }
}

/// Iterates a CSV file's records with the byte scanner: the header first (to `layout`), then each row; lines
/// that are not records (too long, a quote left open) go to `skip` with their line. Returns the header, or nil
/// for a file without one (empty, or blank lines only).
@discardableResult
func forEachCSVRecord<Layout>(
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
            if scanner.fieldCount == 1, scanner.field(0).count == 0 { continue } // blank line
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

/// Column positions shared by the reference files, resolved with `FieldRole`'s aliases.
private func roles(_ header: [String]) -> [FieldRole] {
    header.map { FieldRole.resolve($0, idColumn: nil) }
}

private func position(_ names: [String], in header: [String]) -> Int {
    header.firstIndex { names.contains($0.lowercased()) } ?? -1
}

/// A reference file's required columns, resolved from its header: each has a name and a position (-1 when
/// absent), and the layout exists only when every required one is there.
private protocol ReferenceColumns: Sendable {
    /// Resolves every column, required or not.
    init(resolving header: [String])
    /// Each required column's name and position.
    var required: [(name: String, position: Int)] { get }
}

extension ReferenceColumns {
    /// The layout, or nil when a required column is missing.
    init?(_ header: [String]) {
        self.init(resolving: header)
        guard missing.isEmpty else { return nil }
    }

    /// The names of the required columns the header lacks.
    var missing: [String] { required.filter { $0.position < 0 }.map(\.name) }

    /// The error for a header that lacks required columns, naming them.
    static func missingColumnsError(_ path: String, header: [String]) -> CLIError {
        let layout = Self(resolving: header)
        return CLIError.missingColumns(file: path, missing: layout.missing,
                                       expected: layout.required.map(\.name).joined(separator: ","), header: header)
    }
}

private struct PlaceColumns: ReferenceColumns {
    let id, latitude, longitude, radius: Int

    init(resolving header: [String]) {
        let r = roles(header)
        id = r.firstIndex(of: .id) ?? position(["geonameid", "place_id", "placeid"], in: header)
        latitude = r.firstIndex(of: .latitude) ?? -1
        longitude = r.firstIndex(of: .longitude) ?? -1
        radius = r.firstIndex(of: .radius) ?? -1
    }

    var required: [(name: String, position: Int)] { [("id", id), ("latitude", latitude), ("longitude", longitude)] }
}

private struct EventColumns: ReferenceColumns {
    let id, place, latitude, longitude, radius, start, end: Int

    init(resolving header: [String]) {
        let r = roles(header)
        id = r.firstIndex(of: .id) ?? position(["event_id", "eventid"], in: header)
        place = position(["placeid", "place_id", "place"], in: header)
        latitude = r.firstIndex(of: .latitude) ?? -1
        longitude = r.firstIndex(of: .longitude) ?? -1
        radius = r.firstIndex(of: .radius) ?? -1
        start = r.firstIndex(of: .startTime) ?? -1
        end = r.firstIndex(of: .endTime) ?? -1
    }

    var required: [(name: String, position: Int)] { [("id", id), ("startTime", start), ("endTime", end)] }
}

private struct JoinColumns: ReferenceColumns {
    let user, event: Int

    init(resolving header: [String]) {
        user = position(["user", "userid", "user_id"], in: header)
        event = position(["event", "eventid", "event_id"], in: header)
    }

    var required: [(name: String, position: Int)] { [("userId", user), ("eventId", event)] }
}

/// What one reference row gives.
enum ReferenceRow<Item: Sendable>: Sendable {
    case item(Item)
    case skip(String)
}

/// The rows of a reference CSV file, parsed in parallel, in file order.
struct ParsedReferenceRows<Item: Sendable> {
    var items: [Item] = []
    var skipped: [String] = []
    var skippedCount = 0
    /// The header's column names (trimmed), once read; nil for a file without one.
    var header: [String]?
    var layoutFound = false
}

/// Parses a CSV file's rows with `workers` threads: each batch is split at record boundaries and the pieces
/// are parsed at once; their rows are joined in order.
func parallelCSVRows<Layout: Sendable, Item: Sendable>(
    path: String, workers: Int,
    layout: ([String]) -> Layout?,
    row: @escaping @Sendable (Layout, CheckInCSVScanner, Int) -> ReferenceRow<Item>
) throws -> ParsedReferenceRows<Item> {
    var parsed = ParsedReferenceRows<Item>()
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
                let (_, next, lines) = scanner.scanner.scanRecord(base, start: start, end: batch.count)
                start = next
                line += lines
                if scanner.scanner.fieldCount == 1, scanner.scanner.field(0).count == 0 { continue }
                let header = (0..<scanner.scanner.fieldCount).map { scanner.scanner.field($0).text.trimmingSpaces }
                parsed.header = header
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
            var rows: [ReferenceRow<Item>] = []
            var lines: [Int] = []
            while position < ranges[k].upperBound {
                let (outcome, next, consumed) = scanner.scanRecord(rest.base, start: position, end: ranges[k].upperBound)
                let recordLine = localLine
                position = next
                localLine += consumed
                if scanner.fieldCount == 1, scanner.field(0).count == 0 { continue }
                if case .unterminatedQuote = outcome {
                    rows.append(.skip("a quote opened and not closed on its line"))
                } else {
                    rows.append(row(columns, scanner, recordLine))
                }
                lines.append(recordLine)
            }
            box.scanner = scanner
            box.rows = rows
            box.lineOffsets = lines
            box.lines = localLine
        }
        if workers > 1, ranges.count > 1 {
            DispatchQueue.concurrentPerform(iterations: ranges.count, execute: work)
        } else {
            for k in ranges.indices { work(k) }
        }
        if parsed.items.isEmpty, let size = input.sizeHint, count > 0 {
            // Size the result from the first batch's rows per byte, so that a large file is not copied
            // from buffer to doubled buffer while its rows are appended.
            let rowsInBatch = ranges.indices.reduce(0) { $0 + ((scanners[$1].rows as? [ReferenceRow<Item>])?.count ?? 0) }
            parsed.items.reserveCapacity(Int(Double(rowsInBatch) * Double(size) / Double(count) * 1.02) + 16)
        }
        for k in ranges.indices {
            let box = scanners[k]
            for (n, result) in (box.rows as? [ReferenceRow<Item>] ?? []).enumerated() {
                switch result {
                case .item(let item): parsed.items.append(item)
                case .skip(let message):
                    parsed.skippedCount += 1
                    if parsed.skipped.count < 10 { parsed.skipped.append("\(path):\(line + box.lineOffsets[n]): \(message)") }
                }
            }
            line += box.lines
            box.rows = []
        }
    }
    return parsed
}

/// A scanner and one piece's parsed rows, reused from batch to batch.
final class CheckInScannerBox: @unchecked Sendable {
    var scanner = CheckInCSVScanner()
    var rows: Any = ()
    var lineOffsets: [Int] = []
    var lines = 0
    deinit { scanner.deallocate() }
}
