/// One thing Cairn indexes: a park, trailhead, place, event, user or sighting.
///
/// The initialiser validates everything a query relies on, so a `Feature` value is always usable:
/// a non-empty id, a checked location, a positive finite radius, a time window where the kind needs one,
/// and known values for the enumerated attributes of ARCHITECTURE.md's domain table.
public struct Feature: Hashable, Sendable {
    /// The caller's identifier, unique per store.
    public let id: String
    /// What the feature is.
    public let kind: FeatureKind
    /// Where it is: the point itself, or for another shape its representative point (`Shape.representativePoint`),
    /// so that every point-based query and rule keeps working.
    public let location: Coordinate
    /// The whole geometry when it is more than a point (a park's polygon, a trail's line), else nil.
    public let shape: Shape?
    /// The circle around `location` used by containment and check-ins, in metres (places need it).
    public let radiusMeters: Double?
    /// When it happens (events) or was seen (sightings, where start == end).
    public let timeWindow: TimeWindow?
    /// Typed attributes by name (`fenced`, `difficulty`, `category`, ...).
    public let attributes: [String: AttributeValue]

    /// Creates a validated feature; `shape` (a checked geometry) is kept when it is more than a point.
    /// - Throws: `FeatureError` saying which field is wrong and what was expected.
    /// - Complexity: O(a) in the number of attributes.
    public init(
        id: String,
        kind: FeatureKind,
        location: Coordinate,
        radiusMeters: Double? = nil,
        timeWindow: TimeWindow? = nil,
        attributes: [String: AttributeValue] = [:],
        shape: Shape? = nil
    ) throws(FeatureError) {
        guard !id.isEmpty else { throw .emptyId }
        if let radiusMeters, !(radiusMeters.isFinite && radiusMeters > 0) { throw .invalidRadius(radiusMeters) }
        if timeWindow == nil, kind == .event || kind == .sighting { throw .missingTime(kind: kind) }
        // The kind's rules looked up once, not per attribute: most kinds have none, and hashing the kind for
        // every attribute cost more than the checks.
        let rules = Feature.enumeratedAttributes[kind]
        for (name, value) in attributes {
            if let rules, let rule = rules[name] { try rule.check(name: name, value: value) }
            if case .number(let n) = value, !n.isFinite { throw .invalidAttribute(name: name, value: value.description, expected: "a finite number") }
        }
        // A Point shape says no more than the location: kept as nil, so a point is stored one way only.
        self.init(uncheckedId: id, kind: kind, location: location, radiusMeters: radiusMeters, timeWindow: timeWindow,
                  attributes: attributes, shape: shape?.kind == .point ? nil : shape)
    }

    /// A feature taken as it is, unchecked: for values that were checked when they were stored (a snapshot whose
    /// checksum matched).
    /// - Complexity: O(1).
    init(uncheckedId id: String, kind: FeatureKind, location: Coordinate, radiusMeters: Double?, timeWindow: TimeWindow?,
         attributes: [String: AttributeValue], shape: Shape? = nil) {
        self.id = id
        self.shape = shape
        self.kind = kind
        self.location = location
        self.radiusMeters = radiusMeters
        self.timeWindow = timeWindow
        self.attributes = attributes
    }

    /// The attributes whose values come from a fixed list, per kind (ARCHITECTURE.md, "Domain").
    public static let enumeratedAttributes: [FeatureKind: [String: EnumeratedAttribute]] = [
        .trailhead: [
            "difficulty": EnumeratedAttribute(allowed: ["casual", "moderate", "challenging"], isSet: false),
            "ageGroups": EnumeratedAttribute(allowed: ["baby", "toddler", "schoolAge"], isSet: true),
        ],
        .event: [
            "visibility": EnumeratedAttribute(allowed: ["public", "private"], isSet: false),
        ],
    ]
}
