import ArgumentParser
import CairnCore
import CairnIO

/// `--t-srs CRS`: the coordinate system query and cluster output is written in.
struct OutputCoordinateSystem: ParsableArguments {
    @Option(name: .customLong("t-srs"), help: ArgumentHelp("""
        Write positions in this coordinate reference system instead of WGS84 longitude/latitude: EPSG:3857 (Web \
        Mercator, for tile pipelines), a national grid such as EPSG:3067, any definition PROJ reads. GeoJSON then \
        carries a legacy crs member naming it, JSON members and CSV columns are x and y; distances stay metres.
        """, valueName: "crs"))
    var system: String?

    func validate() throws { _ = try transform() }

    /// The transform from WGS84 degrees into the system, nil without `--t-srs`.
    func transform() throws -> CoordinateTransform? {
        guard let system else { return nil }
        do throws(CoordinateTransformError) {
            return try CoordinateTransform.fromWGS84(to: system)
        } catch {
            throw ValidationError("--t-srs: \(error)")
        }
    }

    /// The positions of `locations` in the system, nil without `--t-srs`.
    func coordinates(of locations: some Collection<Coordinate>) throws -> OutputCoordinates? {
        guard let transform = try transform() else { return nil }
        return OutputCoordinates(locations: locations, transform: transform)
    }
}
