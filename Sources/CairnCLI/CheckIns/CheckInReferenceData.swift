import CairnCore
import CairnIO
import CairnStore

/// Loads what check-ins are judged against: places, events and joins, from CSV (read directly as bytes,
/// the fast path), other formats (through `openFeatureReader`) or the store.
///
/// A bad row in these files is skipped and reported (first few messages, then a count); it does not stop the run.
struct CheckInReferenceData {
    /// Radius for places without one, metres (nil: such places are skipped and reported).
    var defaultRadiusMeters: Double?
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

    // MARK: - Places

    mutating func loadPlaces(path: String) throws {
        if InputFormat.detect(path: path) == .csv {
            try forEachCSVRecord(path: path) { header in
                PlaceColumns(header)
            } row: { columns, scanner, line in
                guard let columns else { throw CLIError("\(path): the header needs id, latitude and longitude columns") }
                let id = scanner.field(columns.id).text
                guard !id.isEmpty else { skip("\(path):\(line): missing id"); return }
                guard let center = coordinate(scanner.field(columns.latitude), scanner.field(columns.longitude)) else {
                    skip("\(path):\(line): bad coordinate")
                    return
                }
                guard let radius = radius(scanner.field(columns.radius)) else {
                    skip("\(path):\(line): missing or bad radius (give --radius for a default)")
                    return
                }
                guard let circle = try? Circle(center: center, radiusMeters: radius) else {
                    skip("\(path):\(line): bad radius")
                    return
                }
                places.append(CheckInPlace(id: id, circle: circle))
            }
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
            try forEachCSVRecord(path: path) { header in
                EventColumns(header)
            } row: { columns, scanner, line in
                guard let columns else { throw CLIError("\(path): the header needs id, startTime and endTime columns") }
                let id = scanner.field(columns.id).text
                guard !id.isEmpty else { skip("\(path):\(line): missing id"); return }
                let start = CheckInTimeText.seconds(scanner.field(columns.start).bytes)
                let end = CheckInTimeText.seconds(scanner.field(columns.end).bytes)
                guard start.isFinite, end.isFinite,
                      let window = try? TimeWindow(start: Timestamp(secondsSince1970: start), end: Timestamp(secondsSince1970: end)) else {
                    skip("\(path):\(line): event \(id): missing or bad startTime/endTime, or end before start")
                    return
                }
                let placeField = scanner.field(columns.place)
                var circle: Circle?
                if let center = coordinate(scanner.field(columns.latitude), scanner.field(columns.longitude)),
                   let radius = radius(scanner.field(columns.radius)) {
                    circle = try? Circle(center: center, radiusMeters: radius)
                }
                events.append(CheckInEvent(id: id, placeId: placeField.count > 0 ? placeField.text : nil, circle: circle, window: window))
            }
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
            try forEachCSVRecord(path: path) { header in
                JoinColumns(header)
            } row: { columns, scanner, line in
                guard let columns else { throw CLIError("\(path): the header needs userId and eventId columns") }
                let user = scanner.field(columns.user).text, event = scanner.field(columns.event).text
                guard !user.isEmpty, !event.isEmpty else { skip("\(path):\(line): missing userId or eventId"); return }
                joins.append(CheckInJoin(userId: user, eventId: event))
            }
            return
        }
        throw CLIError("\(path): joins are read from CSV (userId,eventId)")
    }

    // MARK: - The store

    /// Places (every feature with a radius, or the default radius for places and parks) and events from the store.
    mutating func loadStore(path: String) throws {
        let store = try StoreOptions(path: path).open(create: false)
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

    private func coordinate(_ latitude: CheckInField, _ longitude: CheckInField) -> Coordinate? {
        guard let lat = CheckInNumberText.parse(latitude.bytes), let lon = CheckInNumberText.parse(longitude.bytes) else { return nil }
        return try? Coordinate(latitude: lat, longitude: lon)
    }

    private func radius(_ field: CheckInField) -> Double? {
        if field.count == 0 { return defaultRadiusMeters }
        if let value = CheckInNumberText.parse(field.bytes) { return value }
        return DistanceText.meters(from: field.text)
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

/// Iterates a CSV file's records with the byte scanner: the header first (to `layout`), then each row.
func forEachCSVRecord<Layout>(
    path: String,
    layout: ([String]) -> Layout?,
    row: (Layout?, CheckInCSVScanner, Int) throws -> Void
) throws {
    let input = try CheckInBatchInput(path: path, csvQuotes: true)
    var scanner = CheckInCSVScanner()
    defer { scanner.deallocate() }
    var columns: Layout?
    var sawHeader = false
    var line = 1
    while let batch = try input.next() {
        guard let base = batch.baseAddress else { continue }
        scanner.reset(forBufferOf: batch.count)
        var position = 0
        while position < batch.count {
            let (outcome, next, lines) = scanner.scanRecord(base, start: position, end: batch.count)
            defer { position = next; line += lines }
            if case .unterminatedQuote = outcome { continue }
            if scanner.fieldCount == 1, scanner.field(0).count == 0 { continue } // blank line
            if !sawHeader {
                sawHeader = true
                columns = layout((0..<scanner.fieldCount).map { scanner.field($0).text.trimmingSpaces })
                continue
            }
            try row(columns, scanner, line)
        }
    }
}

/// Column positions shared by the reference files, resolved with `FieldRole`'s aliases.
private func roles(_ header: [String]) -> [FieldRole] {
    header.map { FieldRole.resolve($0, idColumn: nil) }
}

private func position(_ names: [String], in header: [String]) -> Int {
    header.firstIndex { names.contains($0.lowercased()) } ?? -1
}

private struct PlaceColumns {
    let id, latitude, longitude, radius: Int

    init?(_ header: [String]) {
        let r = roles(header)
        id = r.firstIndex(of: .id) ?? position(["geonameid", "place_id", "placeid"], in: header)
        latitude = r.firstIndex(of: .latitude) ?? -1
        longitude = r.firstIndex(of: .longitude) ?? -1
        radius = r.firstIndex(of: .radius) ?? -1
        guard id >= 0, latitude >= 0, longitude >= 0 else { return nil }
    }
}

private struct EventColumns {
    let id, place, latitude, longitude, radius, start, end: Int

    init?(_ header: [String]) {
        let r = roles(header)
        id = r.firstIndex(of: .id) ?? position(["event_id", "eventid"], in: header)
        place = position(["placeid", "place_id", "place"], in: header)
        latitude = r.firstIndex(of: .latitude) ?? -1
        longitude = r.firstIndex(of: .longitude) ?? -1
        radius = r.firstIndex(of: .radius) ?? -1
        start = r.firstIndex(of: .startTime) ?? -1
        end = r.firstIndex(of: .endTime) ?? -1
        guard id >= 0, start >= 0, end >= 0 else { return nil }
    }
}

private struct JoinColumns {
    let user, event: Int

    init?(_ header: [String]) {
        user = position(["user", "userid", "user_id"], in: header)
        event = position(["event", "eventid", "event_id"], in: header)
        guard user >= 0, event >= 0 else { return nil }
    }
}
