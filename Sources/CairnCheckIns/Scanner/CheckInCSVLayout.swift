import CairnCore

/// A CSV check-in header: which field index holds each column.
struct CheckInCSVLayout {
    /// Field index per `CheckInColumn` raw value, or -1.
    var indices = [Int](repeating: -1, count: CheckInColumn.allCases.count)
    /// Fields per row.
    var fieldCount = 0

    /// Resolves a header.
    /// - Throws: `CheckInError` naming the missing columns.
    init(header: [String], file: String) throws(CheckInError) {
        fieldCount = header.count
        for (index, name) in header.enumerated() {
            if let column = CheckInColumn.resolve(name), indices[column.rawValue] < 0 { indices[column.rawValue] = index }
        }
        let missing = CheckInColumn.required.filter { indices[$0.rawValue] < 0 }
        if !missing.isEmpty {
            throw CheckInError.missingColumns(file: file, missing: missing.map { "\($0)" },
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
