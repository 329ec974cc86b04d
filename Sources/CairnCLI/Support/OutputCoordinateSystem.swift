import ArgumentParser
import CairnCore
import CairnIO

/// `--t-srs CRS`: the coordinate system query and cluster output is written in.
///
/// A plain `@Option` in each command, not an option group: every group costs ArgumentParser a reflection pass on
/// each run, about 1.5 M instructions, 3 % of a one-off box query.
enum OutputCoordinateSystem {
    /// The option's help, shared by every command that has it.
    static let help = ArgumentHelp("""
        Write positions in this coordinate reference system instead of WGS84 longitude/latitude: EPSG:3857 (Web \
        Mercator, for tile pipelines), a national grid such as EPSG:3067, any definition PROJ reads. GeoJSON then \
        carries a legacy crs member naming it, JSON members and CSV columns are x and y; distances stay metres.
        """, valueName: "crs")

    /// The transform from WGS84 degrees into `system`, nil without one.
    /// - Throws: `ValidationError` naming `--t-srs` and PROJ's reason.
    static func transform(_ system: String?) throws -> CoordinateTransform? {
        guard let system else { return nil }
        do throws(CoordinateTransformError) {
            return try CoordinateTransform.fromWGS84(to: system)
        } catch {
            throw ValidationError("--t-srs: \(error)")
        }
    }

    /// The positions and shapes of `features` in `system`, nil without one.
    /// - Throws: `ValidationError` for the system, `CLIError` naming the feature whose shape has a vertex PROJ
    ///   cannot transform into it.
    static func coordinates(_ system: String?, of features: some Collection<Feature>) throws -> OutputCoordinates? {
        guard let transform = try transform(system) else { return nil }
        do throws(CoordinateTransformError) {
            return try OutputCoordinates(features: features, transform: transform)
        } catch {
            throw CLIError("--t-srs: \(error)")
        }
    }
}
