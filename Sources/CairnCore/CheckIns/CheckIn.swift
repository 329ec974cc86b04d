/// One check-in to judge: who, where, when, and optionally which event or place it claims.
///
/// The coordinate and time are kept raw so that bad values reach the validator and get their own reason
/// (`invalid_coordinate`, `invalid_time`) instead of being refused earlier.
public struct CheckIn: Hashable, Sendable {
    /// The check-in's identifier (echoed in results; not required to be unique).
    public var id: String
    /// The user who checked in.
    public var userId: String
    /// The event claimed, or nil (an empty string counts as nil).
    public var eventId: String?
    /// The place claimed when no event is (a repeatable visit), or nil.
    public var placeId: String?
    /// Degrees north, unchecked (NaN and out-of-range values give `invalid_coordinate`).
    public var latitude: Double
    /// Degrees east, unchecked.
    public var longitude: Double
    /// When, or nil when the time was missing or unreadable (gives `invalid_time`).
    public var time: Timestamp?
    /// The GPS accuracy radius in metres, if known; used by `CheckInAccuracyPolicy.lenient`.
    public var accuracyMeters: Double?

    /// Creates a check-in.
    /// - Complexity: O(1).
    public init(id: String, userId: String, eventId: String? = nil, placeId: String? = nil,
                latitude: Double, longitude: Double, time: Timestamp?, accuracyMeters: Double? = nil) {
        self.id = id
        self.userId = userId
        self.eventId = eventId
        self.placeId = placeId
        self.latitude = latitude
        self.longitude = longitude
        self.time = time
        self.accuracyMeters = accuracyMeters
    }
}

/// Why a check-in is not valid (ARCHITECTURE.md, "Check-in rule"); the raw value is the reason code.
public enum CheckInReason: String, CaseIterable, Hashable, Sendable {
    /// The point is farther from the place's centre than its radius (the result carries the distance).
    case outsideRadius = "outside_radius"
    /// The time is before the event's start.
    case beforeStart = "before_start"
    /// The time is at or after the event's end.
    case afterEnd = "after_end"
    /// The event id is not among the events.
    case unknownEvent = "unknown_event"
    /// The place id (given, or the event's) is not among the places.
    case unknownPlace = "unknown_place"
    /// Joins are required and the user has not joined the event.
    case notJoined = "not_joined"
    /// The same user already has a valid check-in for the event (the first valid one in input order wins).
    case duplicate
    /// The latitude or longitude is NaN, infinite or out of range (or, under the lenient policy, the accuracy is
    /// negative, not finite or not a number).
    case invalidCoordinate = "invalid_coordinate"
    /// The time is missing or not ISO 8601.
    case invalidTime = "invalid_time"
    /// The row could not be read as a check-in (wrong field count, missing id or user, unreadable number).
    case malformedRow = "malformed_row"
    /// A point-only check-in (no event, no place) that no place's circle or area contains.
    case noMatch = "no_match"
    /// The check-in names an event and a place that is not the event's place (a check-in naming an event
    /// is judged against the event's place; naming another one as well is a contradiction, not a hint).
    case placeMismatch = "place_mismatch"
    /// The place has an area (a Polygon or MultiPolygon) and the point is not in it, boundary included (the
    /// result carries the distance to the boundary). Last, so that the other reasons keep their ordinals.
    case outsideArea = "outside_area"

    /// Reads a reason code (`outside_radius`, ...).
    /// - Complexity: O(1).
    public init?(code: String) { self.init(rawValue: code) }

    /// The reason code written in outputs.
    public var code: String { rawValue }
}

/// How a check-in's GPS accuracy counts.
public enum CheckInAccuracyPolicy: String, CaseIterable, Hashable, Sendable {
    /// The accuracy is ignored: valid when distance ≤ radius.
    case ignore
    /// Benefit of the doubt: valid when distance − accuracy ≤ radius.
    case lenient
}

/// The verdict on one check-in: valid, or one reason, with the place, event and distance that decided it.
///
/// Stored compactly (24 bytes) because batch validation keeps one per row of a chunk.
public struct CheckInResult: Hashable, Sendable {
    /// Nil when the check-in is valid, otherwise why not.
    public var reason: CheckInReason?
    /// The resolved place's index in the validator's places, or -1.
    package var place: Int32
    /// The resolved event's index in the validator's events, or -1.
    package var event: Int32
    /// For `outside_radius`, the exact model distance in metres from the place's centre to the point; for
    /// `outside_area`, the WGS84 geodesic distance to the area's boundary; otherwise NaN.
    package var distance: Double

    package init(reason: CheckInReason?, place: Int32 = -1, event: Int32 = -1, distance: Double = .nan) {
        self.reason = reason
        self.place = place
        self.event = event
        self.distance = distance
    }

    /// Whether the check-in holds.
    /// - Complexity: O(1).
    public var isValid: Bool { reason == nil }

    /// The index of the place the check-in was judged against, if one was resolved (read it with
    /// `CheckInValidator.place(at:)` or `placeId(at:)`).
    /// - Complexity: O(1).
    public var placeIndex: Int? { place >= 0 ? Int(place) : nil }

    /// The index of the event the check-in was judged against, if one was resolved (read it with
    /// `CheckInValidator.eventId(at:)` or `window(ofEvent:)`).
    /// - Complexity: O(1).
    public var eventIndex: Int? { event >= 0 ? Int(event) : nil }

    /// The exact distance in metres from the place's centre under the validator's model, given for
    /// `outside_radius`, or the geodesic distance to the place's boundary (`ShapeBoundaryDistance`, within
    /// 0.1 mm), given for `outside_area` (the only verdicts that need one; valid points are usually decided by
    /// cheap bounds).
    /// - Complexity: O(1).
    public var distanceMeters: Double? { distance.isNaN ? nil : distance }

    public static func == (a: CheckInResult, b: CheckInResult) -> Bool {
        a.reason == b.reason && a.place == b.place && a.event == b.event
            && (a.distance == b.distance || (a.distance.isNaN && b.distance.isNaN))
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(reason)
        hasher.combine(place)
        hasher.combine(event)
        hasher.combine(distance.isNaN ? 0 : distance)
    }
}

/// A place check-ins are judged against: an id and a circle, or an area.
///
/// With an area (`shape`, a Polygon or MultiPolygon), the area decides and the circle's radius is not used: a
/// check-in is at the place when `Shape.covers` holds (boundary inside). The circle's centre stays the place's
/// centre (a point-only check-in covered by several places goes to the nearest centre).
public struct CheckInPlace: Hashable, Sendable {
    /// The place's id.
    public let id: String
    /// Its centre and radius (the radius unused when `shape` is given).
    public let circle: Circle
    /// Its area, when it has one: always a Polygon or MultiPolygon (other shapes are not kept).
    public let shape: Shape?

    /// Creates a place; `shape` is kept only when it has an area (a Polygon or MultiPolygon), and then decides.
    /// - Complexity: O(1).
    public init(id: String, circle: Circle, shape: Shape? = nil) {
        self.id = id
        self.circle = circle
        self.shape = shape?.kind.isAreal == true ? shape : nil
    }
}

/// An event check-ins are judged against: an id, a place and a half-open time window `[start, end)`.
public struct CheckInEvent: Hashable, Sendable {
    /// The event's id.
    public let id: String
    /// The id of its place, if it names one.
    public let placeId: String?
    /// Its own circle, used when `placeId` is missing or not among the places (the first such event
    /// then defines that place for every check-in).
    public let circle: Circle?
    /// When check-ins count: `start <= time < end`.
    public let window: TimeWindow

    /// Creates an event.
    /// - Complexity: O(1).
    public init(id: String, placeId: String?, circle: Circle? = nil, window: TimeWindow) {
        self.id = id
        self.placeId = placeId
        self.circle = circle
        self.window = window
    }
}

/// A user's membership of an event (`not_joined` is decided against these when joins are given).
public struct CheckInJoin: Hashable, Sendable {
    /// The user.
    public let userId: String
    /// The event joined.
    public let eventId: String

    /// Creates a join.
    /// - Complexity: O(1).
    public init(userId: String, eventId: String) {
        self.userId = userId
        self.eventId = eventId
    }
}
