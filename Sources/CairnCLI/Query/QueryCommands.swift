import ArgumentParser
import CairnCore
import CairnIO

extension DistanceModel: ExpressibleByArgument {}

/// `cairn bbox`: the map viewfinder.
struct BBoxCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bbox",
        abstract: "Features inside a box: the map viewfinder. A box whose west is east of its east crosses the antimeridian.",
        discussion: """
            Give --bbox WEST,SOUTH,EAST,NORTH, or the viewfinder's corners --sw LAT,LON --ne LAT,LON. Edges count as \
            inside. A line or polygon is in the answer when its geometry meets the box, wherever its centroid lies. Longitudes beyond ±180, as a map with world copies gives them (--bbox 170,-25,190,-10), name the \
            same meridians moved by whole turns: that box crosses the antimeridian from 170 to -170.
            """
    )

    @Option(parsing: .unconditional, help: ArgumentHelp("The box in degrees.", valueName: "west,south,east,north"))
    var bbox: String?

    @Option(name: .customLong("sw"), parsing: .unconditional, help: ArgumentHelp("The south-west corner.", valueName: "lat,lon"))
    var southWest: String?

    @Option(name: .customLong("ne"), parsing: .unconditional, help: ArgumentHelp("The north-east corner.", valueName: "lat,lon"))
    var northEast: String?

    @OptionGroup var query: QueryOptions

    func box() throws -> BoundingBox {
        if let bbox {
            guard southWest == nil, northEast == nil else { throw ValidationError("give either --bbox or --sw and --ne, not both") }
            return try validating { () throws(QueryArgumentError) in try QueryArgument.box(bbox, argument: "--bbox") }
        }
        guard let southWest, let northEast else { throw ValidationError("give --bbox WEST,SOUTH,EAST,NORTH or both --sw LAT,LON and --ne LAT,LON") }
        return try validating { () throws(QueryArgumentError) in
            try QueryArgument.box(southWest: southWest, northEast: northEast, arguments: ("--sw", "--ne"))
        }
    }

    func validate() throws { _ = try box() }

    func run() throws {
        let box = try box()
        try query.run(emptyHint: EmptyAnswerHint.box(box), pushedDown: (.box(box), .wgs84)) { index, filter, stats in index.search(in: box, filter: filter, stats: &stats) }
    }
}

/// The `--lat --long` options of the point queries.
struct PointOptions: ParsableArguments {
    @Option(name: [.customLong("lat"), .customLong("latitude")], parsing: .unconditional, help: "Latitude in degrees, -90...90.")
    var latitude: Double

    @Option(name: [.customLong("long"), .customLong("lon"), .customLong("lng"), .customLong("longitude")], parsing: .unconditional,
            help: "Longitude in degrees, -180...180.")
    var longitude: Double

    @Option(help: "The distance model: wgs84 (ellipsoidal geodesic, as PostGIS geography) or sphere (haversine, mean radius 6,371,008.8 m).")
    var model: DistanceModel = .wgs84

    func coordinate() throws -> Coordinate { try parseCoordinate(latitude: latitude, longitude: longitude) }

    func validate() throws { _ = try coordinate() }
}

/// `cairn around`: places around a location.
struct AroundCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "around",
        abstract: "Features within a radius of a point, nearest first, with their distance in metres (distance_m)."
    )

    @OptionGroup var point: PointOptions

    @Option(name: [.customLong("rad"), .customLong("radius")], parsing: .unconditional, help: ArgumentHelp("The radius: 500, 500m, 1.2km, 3mi.", valueName: "distance"))
    var radius: String

    @OptionGroup var query: QueryOptions

    func radiusMeters() throws -> Double {
        try validating { () throws(QueryArgumentError) in try QueryArgument.distanceMeters(radius, argument: "--rad") }
    }

    func validate() throws { _ = try radiusMeters() }

    func run() throws {
        let center = try point.coordinate(), meters = try radiusMeters(), model = point.model
        try query.run(pushedDown: (.around(center: center, radiusMeters: meters), model)) { index, filter, stats in index.within(radiusMeters: meters, of: center, model: model, filter: filter, stats: &stats) }
    }
}

/// `cairn nearest`: the k nearest features.
struct NearestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nearest",
        abstract: "The k features nearest to a point, nearest first, with their distance in metres (distance_m)."
    )

    @OptionGroup var point: PointOptions

    @Option(name: .short, parsing: .unconditional, help: "How many features, at least 1.")
    var k: Int = 20

    @Option(name: .customLong("max-distance"), parsing: .unconditional, help: ArgumentHelp("Only features at most this far: 500m, 10km.", valueName: "distance"))
    var maxDistance: String?

    @OptionGroup var query: QueryOptions

    func maxDistanceMeters() throws -> Double? {
        guard let maxDistance else { return nil }
        return try validating { () throws(QueryArgumentError) in try QueryArgument.distanceMeters(maxDistance, argument: "--max-distance") }
    }

    func validate() throws {
        try OptionRange.check("-k", k, atLeast: 1)
        _ = try maxDistanceMeters()
    }

    func run() throws {
        let center = try point.coordinate(), limit = try maxDistanceMeters(), model = point.model, count = k
        try query.run(pushedDown: (.nearest(center: center, count: count, maxDistanceMeters: limit), model)) { index, filter, stats in
            index.nearest(to: center, count: count, maxDistanceMeters: limit, model: model, filter: filter, stats: &stats)
        }
    }
}

/// `cairn containing`: which polygons and places' circles contain a point.
struct ContainingCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "containing",
        abstract: "Features whose polygon, or circle (location + radiusMeters), contains a point: the check-in test.",
        discussion: """
            Polygons that cover the point come first (distance_m 0; the boundary counts as inside; edges are straight \
            in longitude and latitude), then circles, nearest centre first. A feature with a shape is judged by its \
            shape alone: lines and points contain nothing.
            """
    )

    @OptionGroup var point: PointOptions
    @OptionGroup var query: QueryOptions

    func run() throws {
        let center = try point.coordinate(), model = point.model
        try query.run(emptyHint: EmptyAnswerHint.radius, pushedDown: (.containing(center), model)) { index, filter, stats in
            index.containing(center, model: model, filter: filter, stats: &stats)
        }
    }
}

/// `cairn intersects`: which features meet a drawn polygon or a route line.
struct IntersectsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "intersects",
        abstract: "Features whose geometry meets a given geometry (a drawn polygon, a route line), in store order.",
        discussion: """
            Give --geometry as WKT ('POLYGON ((24.9 60.1, 25 60.1, 25 60.2, 24.9 60.1))'), WKB in hexadecimal digits, \
            or a GeoJSON geometry object, in longitude/latitude degrees. A point feature is in the answer when it lies \
            on or in the geometry; a shape when the two share a point (boundaries count; edges are straight in \
            longitude and latitude).
            """
    )

    @Option(parsing: .unconditional, help: ArgumentHelp("The geometry: WKT, hexadecimal WKB or GeoJSON.", valueName: "geometry"))
    var geometry: String

    @OptionGroup var query: QueryOptions

    func shape() throws -> Shape {
        try validating { () throws(QueryArgumentError) in try QueryArgument.shape(geometry, argument: "--geometry") }
    }

    func validate() throws { _ = try shape() }

    func run() throws {
        let shape = try shape()
        try query.run { index, filter, stats in index.intersecting(shape, filter: filter, stats: &stats) }
    }
}
