import CairnCore
import CZlib

/// Reads the coordinates of a CSV file of places (a header row naming `latitude` and `longitude`,
/// RFC 4180 quoting), gzip-compressed or plain (zlib's gz functions read both).
enum PlacesFile {
    /// Every row's coordinate, in file order; rows with an invalid coordinate are skipped.
    /// - Throws: `BenchError.data` when the file cannot be opened or lacks the two columns.
    /// - Complexity: O(bytes of the file).
    static func read(path: String) throws -> [Coordinate] {
        // gzopen returns NULL when the file cannot be opened (errno set).
        guard let file = gzopen(path, "rb") else {
            throw BenchError.data("cannot open places file \(path) (pass --places PATH, or --dataset uniform)")
        }
        defer { _ = gzclose(file) }  // gzclose returns Z_OK or an error code; nothing to do with it here.

        var points: [Coordinate] = []
        var latitudeColumn = -1, longitudeColumn = -1
        var isHeader = true
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)

        func handle(line: ArraySlice<UInt8>) throws {
            let fields = splitCSV(line)
            if isHeader {
                isHeader = false
                latitudeColumn = fields.firstIndex { ["lat", "latitude"].contains($0.lowercased()) } ?? -1
                longitudeColumn = fields.firstIndex { ["lon", "lng", "long", "longitude"].contains($0.lowercased()) } ?? -1
                guard latitudeColumn >= 0, longitudeColumn >= 0 else {
                    throw BenchError.data("\(path): the header has no latitude and longitude columns")
                }
                return
            }
            guard fields.count > max(latitudeColumn, longitudeColumn),
                  let latitude = Double(fields[latitudeColumn]), let longitude = Double(fields[longitudeColumn]),
                  let point = try? Coordinate(latitude: latitude, longitude: longitude) else { return }
            points.append(point)
        }

        while true {
            // gzread returns the number of uncompressed bytes read, 0 at the end, -1 on error.
            let read = chunk.withUnsafeMutableBytes { gzread(file, $0.baseAddress, UInt32($0.count)) }
            if read < 0 { throw BenchError.data("\(path): not a readable gzip or text file") }
            if read == 0 { break }
            pending.append(contentsOf: chunk[0..<Int(read)])
            var start = 0
            while let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
                var end = newline
                if end > start, pending[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                if end > start { try handle(line: pending[start..<end]) }
                start = newline + 1
            }
            pending.removeFirst(start)
        }
        if !pending.isEmpty { try handle(line: pending[...]) }
        return points
    }

    /// The fields of one CSV line; quoted fields may hold commas and doubled quotes.
    /// - Complexity: O(length of the line).
    static func splitCSV(_ line: ArraySlice<UInt8>) -> [String] {
        var fields: [String] = []
        var field: [UInt8] = []
        var quoted = false
        var index = line.startIndex
        while index < line.endIndex {
            let byte = line[index]
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    let next = line.index(after: index)
                    if next < line.endIndex, line[next] == UInt8(ascii: "\"") {
                        field.append(byte)
                        index = next
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(byte)
                }
            } else if byte == UInt8(ascii: ",") {
                fields.append(String(decoding: field, as: UTF8.self))
                field.removeAll(keepingCapacity: true)
            } else if byte == UInt8(ascii: "\""), field.isEmpty {
                quoted = true
            } else {
                field.append(byte)
            }
            index = line.index(after: index)
        }
        fields.append(String(decoding: field, as: UTF8.self))
        return fields
    }
}
