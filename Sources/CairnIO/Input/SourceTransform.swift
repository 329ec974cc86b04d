import CairnCore

/// The transform of an input file's positions into WGS84 degrees, with the note the import's summary prints.
struct SourceTransform {
    /// The transform; nil when the system named is WGS84 degrees itself.
    let transform: CoordinateTransform?
    /// `FILE: coordinates from EPSG:3067 (--s-srs)`.
    let note: String

    /// The transform from `coordinateSystem` for `file`; `origin` says where the name came from (`--s-srs`,
    /// `the file's crs member`).
    /// - Throws: `InputError` naming the file and PROJ's reason.
    /// - Complexity: PROJ's lookups, once per file.
    init(file: String, coordinateSystem: String, origin: String) throws(InputError) {
        note = "\(file): coordinates from \(coordinateSystem) (\(origin))"
        if CoordinateTransform.namesWGS84Degrees(coordinateSystem) {
            transform = nil
            return
        }
        do throws(CoordinateTransformError) {
            transform = try CoordinateTransform.toWGS84(from: coordinateSystem)
        } catch {
            throw InputError(file: file, message: "\(error) (from \(origin))")
        }
    }

    /// The one message of a file whose positions cannot be degrees and that names no coordinate system.
    /// - Complexity: O(1).
    static func projectedRefusal(file: String, x: Double, y: Double, line: Int) -> InputError {
        InputError(file: file, message: "these look like projected coordinates (x \(TextEscaping.jsonNumber(x)), "
                   + "y \(TextEscaping.jsonNumber(y)) at line \(line)); pass --s-srs")
    }
}
