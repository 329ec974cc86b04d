import CairnCore

/// How input records become features.
public struct ImportOptions: Sendable {
    /// When set, every record gets this kind (a `kind` field in the record is ignored).
    /// When nil, a record's `kind` field decides, and records without one are places.
    public var kind: FeatureKind?
    /// The field holding the id (default `id`). Without such a field the id is `FILENAME:LINE`.
    public var idColumn: String?
    /// The radius given to records without one, in metres (`--radius 150m`).
    public var defaultRadiusMeters: Double?
    /// Finds a place by id, for records that name a `placeId` but give no coordinates (events at places):
    /// such a record takes the place's location, and its radius when it has none of its own.
    public var placeLookup: (@Sendable (String) -> Feature?)?
    /// The longest record a reader accepts, in bytes (64 MiB by default): a longer record is rejected alone, by its
    /// line, and reading goes on, so one huge or broken record neither exhausts memory nor loses the good rows.
    public var maxRecordBytes: Int
    /// The coordinate reference system of the input's positions (`--s-srs`: `EPSG:3067`, a PROJ string, WKT), nil
    /// for WGS84 degrees or, in GeoJSON, the file's legacy `crs` member. Positions are transformed into WGS84
    /// longitude/latitude (`CoordinateTransform`) before anything else reads them.
    public var sourceCoordinateSystem: String?

    /// Creates options; the defaults read kinds from the data and ids from an `id` field.
    public init(kind: FeatureKind? = nil, idColumn: String? = nil, defaultRadiusMeters: Double? = nil,
                placeLookup: (@Sendable (String) -> Feature?)? = nil, maxRecordBytes: Int = ImportOptions.defaultMaxRecordBytes,
                sourceCoordinateSystem: String? = nil) {
        self.kind = kind
        self.idColumn = idColumn
        self.defaultRadiusMeters = defaultRadiusMeters
        self.placeLookup = placeLookup
        self.maxRecordBytes = maxRecordBytes
        self.sourceCoordinateSystem = sourceCoordinateSystem
    }

    /// The default record size limit: 64 MiB.
    public static let defaultMaxRecordBytes = 64 << 20
}
