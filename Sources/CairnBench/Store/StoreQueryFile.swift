import CairnCore
import Foundation

/// Queries read from a CSV file, one per line, as a day's query log gives them (`cairn bench --db STORE
/// --queries FILE`):
///
///     box,WEST,SOUTH,EAST,NORTH        degrees; WEST > EAST crosses the antimeridian (cairn bbox)
///     radius,LAT,LON,RADIUS            degrees; RADIUS in metres or with a unit: 500, 1.2km, 3mi (cairn around)
///     nearest,LAT,LON,K                K >= 1 (cairn nearest -k)
///     containing,LAT,LON               (cairn containing)
///
/// `bbox`, `around` and `containment` are accepted for `box`, `radius` and `containing`. Fields are separated by
/// commas and may be padded with spaces; blank lines, lines starting with `#` and a first line starting with `op,`
/// (a header) are skipped. A bad line is reported with its line, field and what was expected, and the good lines
/// around it are kept.
public struct StoreQueryFile: Sendable {
    /// The file's queries grouped by kind, in the order box, radius, nearest, containing (empty kinds left out);
    /// within a kind, in file order.
    public let operations: [StoreOperation]
    /// The lines that could not be read, in file order.
    public let problems: [StoreQueryFileProblem]

    /// Reads and parses the file at `path`.
    /// - Throws: `BenchError.data` when the file cannot be read.
    /// - Complexity: O(bytes of the file).
    public static func read(path: String) throws -> StoreQueryFile {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BenchError.data("cannot read the queries file \(path)")
        }
        return parse(String(decoding: data, as: UTF8.self), path: path)
    }

    /// Parses a queries file's text; `path` names it in the problems.
    /// - Complexity: O(length of the text).
    public static func parse(_ text: String, path: String) -> StoreQueryFile {
        var byKind: [String: [StoreQuery]] = [:]
        var problems: [StoreQueryFileProblem] = []
        var lineNumber = 0
        // "\r\n" is one Character in Swift, a newline like "\n".
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            lineNumber += 1
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            if lineNumber == 1, fields.first?.lowercased() == "op" { continue }
            switch Self.query(fields) {
            case .success(let query): byKind[query.kindName, default: []].append(query)
            case .failure(let failure):
                problems.append(StoreQueryFileProblem(path: path, line: lineNumber, field: failure.field, message: failure.message))
            }
        }
        let operations = ["box", "radius", "nearest", "containing"].compactMap { name in
            byKind[name].map { StoreOperation(name: name, queries: $0) }
        }
        return StoreQueryFile(operations: operations, problems: problems)
    }

    /// The field names of each kind, the operation first.
    static let layouts: [String: [String]] = [
        "box": ["op", "west", "south", "east", "north"],
        "radius": ["op", "lat", "lon", "radius"],
        "nearest": ["op", "lat", "lon", "k"],
        "containing": ["op", "lat", "lon"],
    ]

    /// The spellings accepted for each kind.
    static let aliases = ["box": "box", "bbox": "box", "radius": "radius", "around": "radius",
                          "nearest": "nearest", "containing": "containing", "containment": "containing"]

    /// One line's query.
    static func query(_ fields: [String]) -> Result<StoreQuery, LineFailure> {
        guard let kind = aliases[fields[0].lowercased()], let layout = layouts[kind] else {
            return .failure(LineFailure(field: "field 1 (op)", message: "expected box, radius, nearest or containing, got '\(fields[0])'"))
        }
        guard fields.count == layout.count else {
            return .failure(LineFailure(field: nil, message: "\(kind) takes \(layout.count) fields (\(layout.joined(separator: ","))), got \(fields.count)"))
        }
        func name(_ i: Int) -> String { "field \(i + 1) (\(layout[i]))" }
        func number(_ i: Int, _ expected: String, _ range: ClosedRange<Double>) -> Result<Double, LineFailure> {
            guard let value = Double(fields[i]), value.isFinite, range.contains(value) else {
                return .failure(LineFailure(field: name(i), message: "expected \(expected), got '\(fields[i])'"))
            }
            return .success(value)
        }
        func point() -> Result<Coordinate, LineFailure> {
            number(1, "a latitude in degrees, -90...90", -90...90).flatMap { latitude in
                number(2, "a longitude in degrees, -180...180", -180...180).flatMap { longitude in
                    // Both checked above, so the initialiser cannot refuse them.
                    (try? Coordinate(latitude: latitude, longitude: longitude)).map { .success($0) }
                        ?? .failure(LineFailure(field: name(1), message: "expected a latitude and a longitude"))
                }
            }
        }
        switch kind {
        case "box":
            let edges = [(1, "a west edge in degrees"), (2, "a south edge in degrees, -90...90"),
                         (3, "an east edge in degrees"), (4, "a north edge in degrees, -90...90")]
            var values: [Double] = []
            for (i, expected) in edges {
                // Longitudes beyond ±180 (a map's world copies) are unwrapped, as `cairn bbox` does.
                let range: ClosedRange<Double> = i == 1 || i == 3 ? -540...540 : -90...90
                switch number(i, expected, range) {
                case .success(let value): values.append(value)
                case .failure(let failure): return .failure(failure)
                }
            }
            do {
                return .success(.box(try BoundingBox(unwrappedWest: values[0], south: values[1], east: values[2], north: values[3])))
            } catch {
                let field = switch error {
                case .notFinite(let edge, _), .outOfRange(let edge, _): ["west": 1, "south": 2, "east": 3, "north": 4][edge.rawValue] ?? 1
                case .southAboveNorth: 4
                }
                return .failure(LineFailure(field: name(field), message: "\(error)"))
            }
        case "radius":
            return point().flatMap { center in
                guard let meters = DistanceText.meters(from: fields[3]) else {
                    return .failure(LineFailure(field: name(3), message: "expected a distance of 0 or more (metres, or a unit: 500m, 1.2km, 3mi), got '\(fields[3])'"))
                }
                return .success(.radius(center: center, meters: meters))
            }
        case "nearest":
            return point().flatMap { center in
                guard let count = Int(fields[3]), count >= 1 else {
                    return .failure(LineFailure(field: name(3), message: "expected a whole number of neighbours, 1 or more, got '\(fields[3])'"))
                }
                return .success(.nearest(point: center, count: count))
            }
        default:
            return point().map { .containing($0) }
        }
    }
}
