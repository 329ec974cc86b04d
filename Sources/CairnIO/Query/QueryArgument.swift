import CairnCore

/// Query arguments given as text (command-line options, URL parameters) parsed into the engine's types, with one
/// message per mistake that every front end shows: the CLI passes `--bbox`, the server `bbox`.
public enum QueryArgument {
    /// Numbers separated by commas, as in `-180,-85,180,85`; spaces are ignored.
    /// - Throws: `QueryArgumentError` unless there are exactly `count` numbers.
    /// - Complexity: O(n) in the text's length.
    public static func numbers(_ text: String, count: Int, argument: String, shape: String) throws(QueryArgumentError) -> [Double] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.filter { $0 != " " } }
        let numbers = parts.compactMap { Double($0) }
        guard parts.count == count, numbers.count == count else {
            throw QueryArgumentError(argument: argument, message: "\(argument) '\(text)': expected \(shape), \(count) numbers separated by commas")
        }
        return numbers
    }

    /// A box from `west,south,east,north`; longitudes beyond ±180 (a map's world copies) are unwrapped
    /// (`BoundingBox(unwrappedWest:south:east:north:)`).
    /// - Complexity: O(n) in the text's length.
    public static func box(_ text: String, argument: String) throws(QueryArgumentError) -> BoundingBox {
        let v = try numbers(text, count: 4, argument: argument, shape: "west,south,east,north")
        do {
            return try BoundingBox(unwrappedWest: v[0], south: v[1], east: v[2], north: v[3])
        } catch {
            throw QueryArgumentError(argument: argument, message: "\(argument): \(error)")
        }
    }

    /// A box from a viewfinder's corners, each `lat,lon`.
    /// - Complexity: O(n) in the texts' length.
    public static func box(southWest: String, northEast: String, arguments: (southWest: String, northEast: String)) throws(QueryArgumentError) -> BoundingBox {
        let sw = try numbers(southWest, count: 2, argument: arguments.southWest, shape: "lat,lon")
        let ne = try numbers(northEast, count: 2, argument: arguments.northEast, shape: "lat,lon")
        do {
            return try BoundingBox(unwrappedWest: sw[1], south: sw[0], east: ne[1], north: ne[0])
        } catch {
            throw QueryArgumentError(argument: arguments.southWest, message: "\(arguments.southWest)/\(arguments.northEast): \(error)")
        }
    }

    /// A checked coordinate; `arguments` names the pair as the front end spells it (`--lat/--long`).
    /// - Complexity: O(1).
    public static func coordinate(latitude: Double, longitude: Double, arguments: String) throws(QueryArgumentError) -> Coordinate {
        do {
            return try Coordinate(latitude: latitude, longitude: longitude)
        } catch {
            throw QueryArgumentError(argument: arguments, message: "\(arguments): \(error)")
        }
    }

    /// A distance of 0 or more in metres from `500`, `500m`, `1.2km`, `3mi` (`DistanceText`).
    /// - Complexity: O(n) in the text's length.
    public static func distanceMeters(_ text: String, argument: String) throws(QueryArgumentError) -> Double {
        guard let meters = DistanceText.meters(from: text) else {
            throw QueryArgumentError(argument: argument, message: "\(argument) must be a distance of 0 or more (metres, or a unit: 500m, 1.2km, 3mi), got '\(text)'")
        }
        return meters
    }

    /// The filter of kinds and attribute conditions (`NAME>=VALUE`, `!NAME`, `NAME~MEMBER`; all must hold).
    /// - Complexity: O(n) in the conditions' length.
    public static func filter(kinds: [FeatureKind], conditions: [String], conditionArgument: String) throws(QueryArgumentError) -> FeatureFilter {
        var predicates: [AttributePredicate] = []
        for condition in conditions {
            do {
                predicates.append(try AttributePredicate(parsing: condition))
            } catch {
                throw QueryArgumentError(argument: conditionArgument, message: "\(conditionArgument): \(error)")
            }
        }
        return FeatureFilter(kinds: Set(kinds), predicates: predicates)
    }
}
