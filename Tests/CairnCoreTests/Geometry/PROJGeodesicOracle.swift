@testable import CairnCore

/// PROJ's `geod_inverse` and `geod_direct` on WGS84, opened at run time: the oracle that Cairn's own
/// `GeodesicSolver` is compared with. libproj is a test dependency only (Debian: libproj25).
struct PROJGeodesicOracle: @unchecked Sendable {
    // @unchecked: after geod_init the struct behind `geodesic` is only read, by pure functions.
    private typealias Initialise = @convention(c) (UnsafeMutableRawPointer?, Double, Double) -> Void
    private typealias Solve = @convention(c) (UnsafeRawPointer?, Double, Double, Double, Double,
                                              UnsafeMutablePointer<Double>?, UnsafeMutablePointer<Double>?,
                                              UnsafeMutablePointer<Double>?) -> Void

    private let geodesic: UnsafeRawPointer
    private let inverseFunction: Solve
    private let directFunction: Solve

    /// The sonames of PROJ releases with `geodesic.h` (4.9 on), newest first.
    private static let libraryNames = (19...30).reversed().map { "libproj.so.\($0)" } + ["libproj.so", "libproj.dylib"]

    /// The oracle, or nil (with the loader's message in `loadError`) when libproj cannot be opened.
    static let shared: PROJGeodesicOracle? = {
        guard let library = SharedLibrary(firstOf: libraryNames),
              let initialise = library.function("geod_init", as: Initialise.self),
              let inverse = library.function("geod_inverse", as: Solve.self),
              let direct = library.function("geod_direct", as: Solve.self) else { return nil }
        // struct geod_geodesic is 51 doubles in PROJ 9; 4 KiB leaves room for any layout. Never freed.
        let storage = UnsafeMutableRawPointer.allocate(byteCount: 4096, alignment: 16)
        // geod_init(g, a, f): returns nothing, cannot fail.
        initialise(storage, WGS84.equatorialRadiusMeters, WGS84.flattening)
        return PROJGeodesicOracle(geodesic: UnsafeRawPointer(storage), inverseFunction: inverse, directFunction: direct)
    }()

    static var loadError: String { SharedLibrary.loadError }

    /// geod_inverse's s12, metres (azimuth outputs NULL).
    func inverseMeters(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        var s12 = 0.0
        inverseFunction(geodesic, lat1, lon1, lat2, lon2, &s12, nil, nil)
        return s12
    }

    /// geod_direct's (lat2, lon2), degrees (final azimuth NULL).
    func direct(_ lat1: Double, _ lon1: Double, azimuthDegrees azi1: Double, meters s12: Double) -> (Double, Double) {
        var lat2 = 0.0, lon2 = 0.0
        directFunction(geodesic, lat1, lon1, azi1, s12, &lat2, &lon2, nil)
        return (lat2, lon2)
    }
}
