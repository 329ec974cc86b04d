import CairnCore

/// The fields of one check-in row, as bytes (empty when absent).
struct CheckInRowFields {
    var id = CheckInField.empty
    var user = CheckInField.empty
    var event = CheckInField.empty
    var place = CheckInField.empty
    var latitude = CheckInField.empty
    var longitude = CheckInField.empty
    var time = CheckInField.empty
    var accuracy = CheckInField.empty
}

/// What a check-in field means, resolved from a CSV header or a JSON key (case-insensitive, with aliases).
enum CheckInColumn: Int, CaseIterable {
    case id, user, event, place, latitude, longitude, time, accuracy

    /// Accepted names, lower-case.
    static let aliases: [String: CheckInColumn] = {
        var table: [String: CheckInColumn] = [:]
        for name in ["id", "checkin_id", "checkinid", "check_in_id"] { table[name] = .id }
        for name in ["user", "userid", "user_id"] { table[name] = .user }
        for name in ["event", "eventid", "event_id"] { table[name] = .event }
        for name in ["place", "placeid", "place_id", "park", "parkid", "park_id"] { table[name] = .place }
        for name in ["lat", "latitude", "lattitude"] { table[name] = .latitude }
        for name in ["lon", "lng", "long", "longitude", "longtitude"] { table[name] = .longitude }
        for name in ["time", "timestamp", "checkin_time", "checkintime", "created_at", "createdat", "at"] { table[name] = .time }
        for name in ["accuracy", "accuracym", "accuracy_m", "accuracymeters", "accuracy_meters", "horizontal_accuracy"] { table[name] = .accuracy }
        return table
    }()

    /// The column a name means, if any.
    static func resolve(_ name: String) -> CheckInColumn? {
        aliases[name.trimmingSpaces.lowercased()]
    }

    /// The columns every check-in input needs.
    static let required: [CheckInColumn] = [.id, .user, .latitude, .longitude, .time]
}

/// A CSV check-in header: which field index holds each column.
struct CheckInCSVLayout {
    /// Field index per `CheckInColumn` raw value, or -1.
    var indices = [Int](repeating: -1, count: CheckInColumn.allCases.count)
    /// Fields per row.
    var fieldCount = 0

    /// Resolves a header.
    /// - Throws: `CLIError` naming the missing columns.
    init(header: [String], file: String) throws {
        fieldCount = header.count
        for (index, name) in header.enumerated() {
            if let column = CheckInColumn.resolve(name), indices[column.rawValue] < 0 { indices[column.rawValue] = index }
        }
        let missing = CheckInColumn.required.filter { indices[$0.rawValue] < 0 }
        if !missing.isEmpty {
            throw CLIError.missingColumns(file: file, missing: missing.map { "\($0)" },
                                          expected: "id,userId,eventId,placeId,latitude,longitude,time", header: header)
        }
    }

    /// Picks the check-in's fields out of a scanned record.
    @inline(__always)
    func fields(from scanner: CheckInCSVScanner) -> CheckInRowFields {
        var row = CheckInRowFields()
        row.id = scanner.field(indices[0])
        row.user = scanner.field(indices[1])
        row.event = scanner.field(indices[2])
        row.place = scanner.field(indices[3])
        row.latitude = scanner.field(indices[4])
        row.longitude = scanner.field(indices[5])
        row.time = scanner.field(indices[6])
        row.accuracy = scanner.field(indices[7])
        return row
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs, CR and LF (and a UTF-8 byte order mark).
    var trimmingSpaces: String {
        var scalars = Substring(self).unicodeScalars
        while let first = scalars.first, first == " " || first == "\t" || first == "\r" || first == "\n" || first == "\u{FEFF}" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" || last == "\r" || last == "\n" { scalars.removeLast() }
        return String(scalars)
    }
}

/// Judges one row's fields: the row-level checks (id and user present), then the validator.
enum CheckInRowJudge {
    /// The verdict on a row; `malformed` carries the detail when the row itself is unusable.
    @inline(__always)
    static func judge(_ row: CheckInRowFields, target: CheckInValidator.Target, validator: CheckInValidator, scratch: inout [Int])
        -> (result: CheckInResult, userHash: UInt64, malformed: String?)
    {
        if row.id.count == 0 { return (CheckInResult(reason: .malformedRow), 0, "missing check-in id") }
        if row.user.count == 0 { return (CheckInResult(reason: .malformedRow), 0, "missing user id") }
        let latitude = CheckInNumberText.parse(row.latitude.bytes) ?? .nan
        let longitude = CheckInNumberText.parse(row.longitude.bytes) ?? .nan
        let accuracy = row.accuracy.count == 0 ? 0 : (CheckInNumberText.parse(row.accuracy.bytes) ?? .nan)
        let seconds = CheckInTimeText.seconds(row.time.bytes)
        let result = validator.judge(latitude: latitude, longitude: longitude, seconds: seconds, accuracyMeters: accuracy,
                                     target: target, user: row.user.raw, scratch: &scratch)
        return (result, result.reason == nil ? byteHash(row.user.raw) : 0, nil)
    }
}

extension CLIError {
    /// A header without columns an input needs: `FILE: the header lacks A, B; expected columns like … (got …)`.
    static func missingColumns(file: String, missing: [String], expected: String, header: [String]) -> CLIError {
        CLIError("\(file): the header lacks \(missing.joined(separator: ", ")); expected columns like \(expected) (got \(header.joined(separator: ",")))")
    }
}
