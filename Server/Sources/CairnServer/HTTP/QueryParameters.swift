import CairnCore
import CairnIO
import Hummingbird

/// A request's URL parameters, read into the engine's types with the CLI's messages (a 400 `RequestError` naming
/// the parameter). Names have the CLI's aliases: `lat`/`latitude`, `long`/`lon`/`lng`/`longitude`.
struct QueryParameters {
    let parameters: Parameters

    init(_ request: Request) {
        parameters = request.uri.queryParameters
    }

    /// The first value of the first of `names` given, or nil.
    func text(_ names: String...) -> String? { given(names)?.value }

    /// The first of `names` given, with its first value: the name as the client spelt it, for messages.
    private func given(_ names: [String]) -> (name: String, value: String)? {
        for name in names { if let value = parameters[name[...]] { return (name, String(value)) } }
        return nil
    }

    /// Every value of `name` (a repeated parameter), each also split at commas when `splittingCommas`.
    func all(_ name: String, splittingCommas: Bool = false) -> [String] {
        let values = parameters.getAll(name).map { String($0) }
        return splittingCommas ? values.flatMap { $0.split(separator: ",").map(String.init) } : values
    }

    /// A number; `what` says what is expected in the message.
    func number(_ name: String, _ aliases: String..., what: String) throws -> Double {
        guard let (found, text) = given([name] + aliases) else {
            throw RequestError(.badRequest, "\(name) is required: \(what)", parameter: name)
        }
        guard let value = Double(text), value.isFinite else {
            throw RequestError(.badRequest, "\(found) must be a number, \(what); got '\(text)'", parameter: found)
        }
        return value
    }

    /// A whole number in `range`, or `defaultValue` when absent.
    func integer(_ name: String, in range: ClosedRange<Int>, default defaultValue: Int) throws -> Int {
        guard let text = parameters[name[...]] else { return defaultValue }
        guard let value = Int(String(text)) else {
            throw RequestError(.badRequest, "\(name) must be a whole number, got '\(text)'", parameter: name)
        }
        guard range.contains(value) else {
            throw RequestError(.badRequest, "\(name) must be \(range.lowerBound) to \(range.upperBound), got \(value)", parameter: name)
        }
        return value
    }

    /// The point of `lat` and `long`.
    func coordinate() throws -> Coordinate {
        let latitude = try number("lat", "latitude", what: "a latitude in degrees, -90 to 90")
        let longitude = try number("long", "lon", "lng", "longitude", what: "a longitude in degrees, -180 to 180")
        return try parsing { () throws(QueryArgumentError) in
            try QueryArgument.coordinate(latitude: latitude, longitude: longitude, arguments: "lat/long")
        }
    }

    /// A distance in metres from text such as `500`, `500m`, `1.2km`, `3mi`.
    func distanceMeters(_ name: String, _ aliases: String..., required: Bool) throws -> Double? {
        guard let (found, text) = given([name] + aliases) else {
            if required { throw RequestError(.badRequest, "\(name) is required: a distance (500, 500m, 1.2km, 3mi)", parameter: name) }
            return nil
        }
        return try parsing { () throws(QueryArgumentError) in try QueryArgument.distanceMeters(text, argument: found) }
    }

    /// The box of `bbox=W,S,E,N`, or of `sw=LAT,LON&ne=LAT,LON`.
    func box() throws -> BoundingBox {
        if let bbox = text("bbox") {
            guard text("sw") == nil, text("ne") == nil else {
                throw RequestError(.badRequest, "give either bbox or sw and ne, not both", parameter: "bbox")
            }
            // Plain numbers read fast; anything else (and any error) as the CLI reads it, with its message.
            if let v = Self.plainNumbers(bbox, count: 4), let box = try? BoundingBox(unwrappedWest: v[0], south: v[1], east: v[2], north: v[3]) {
                return box
            }
            return try parsing { () throws(QueryArgumentError) in try QueryArgument.box(bbox, argument: "bbox") }
        }
        guard let sw = text("sw"), let ne = text("ne") else {
            throw RequestError(.badRequest, "give bbox=WEST,SOUTH,EAST,NORTH or both sw=LAT,LON and ne=LAT,LON", parameter: "bbox")
        }
        if let southWest = Self.plainNumbers(sw, count: 2), let northEast = Self.plainNumbers(ne, count: 2),
           let box = try? BoundingBox(unwrappedWest: southWest[1], south: southWest[0], east: northEast[1], north: northEast[0]) {
            return box
        }
        return try parsing { () throws(QueryArgumentError) in try QueryArgument.box(southWest: sw, northEast: ne, arguments: ("sw", "ne")) }
    }

    /// The filter of `kind` (repeatable, or separated by commas) and `where` (repeatable; all must hold).
    func filter() throws -> FeatureFilter {
        var kinds: [FeatureKind] = []
        for name in all("kind", splittingCommas: true) {
            guard let kind = FeatureKind(rawValue: name) else {
                let known = FeatureKind.allCases.map(\.rawValue).joined(separator: ", ")
                throw RequestError(.badRequest, "kind '\(name)' is not one of \(known)", parameter: "kind")
            }
            kinds.append(kind)
        }
        let conditions = all("where")
        return try parsing { () throws(QueryArgumentError) in try QueryArgument.filter(kinds: kinds, conditions: conditions, conditionArgument: "where") }
    }

    /// The canonical text of `filter()`'s parameters, a cache key for the same filter.
    var filterKey: String {
        all("kind", splittingCommas: true).sorted().joined(separator: ",") + "|" + all("where").sorted().joined(separator: "&")
    }

    /// `limit`, at most `maximum` (the configured results per response), `maximum` when absent.
    func limit(maximum: Int) throws -> Int {
        try integer("limit", in: 0...maximum, default: maximum)
    }
}

/// The result of `parse`, its `QueryArgumentError` as a 400 naming the parameter.
func parsing<T>(_ parse: () throws(QueryArgumentError) -> T) throws -> T {
    do {
        return try parse()
    } catch {
        throw RequestError(error)
    }
}
