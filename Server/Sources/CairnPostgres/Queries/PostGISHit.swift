import CairnCore

/// A feature PostGIS found (`PostgresFeatureStore`'s pushed-down queries), with its distance in metres from the
/// query's point (the WGS84 geodesic, PostGIS's `ST_Distance` on the spheroid), nil for a box.
public struct PostGISHit: Sendable {
    /// The feature.
    public let feature: Feature
    /// Its distance in metres, nil for a box query.
    public let distanceMeters: Double?
}
