/// What a feature is; each kind has its own required fields (see ARCHITECTURE.md, "Domain").
public enum FeatureKind: String, CaseIterable, Hashable, Sendable, Codable {
    /// A park: a point (or a polygon's representative point) with amenities.
    case park
    /// The start of a hike.
    case trailhead
    /// A venue with a check-in radius.
    case place
    /// Something that happens at a place between a start and an end time.
    case event
    /// A person's last known location.
    case user
    /// A beacon or animal sighting at a time.
    case sighting
}
