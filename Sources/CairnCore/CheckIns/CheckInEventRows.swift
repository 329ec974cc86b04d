/// Events as read, in input order, before the validator numbers them: ids and place names as bytes
/// (`CheckInIdList`), windows and own circles. The form the reference loaders fill and `CheckInValidator` builds from.
///
/// Appending a parsed event is `@inlinable` (the setters are package-wide for it): the CSV loader in
/// CairnCheckIns appends a million events, and a call across the module boundary per event was most of its cost.
package struct CheckInEventRows: Sendable {
    /// How an event names its place.
    package enum PlaceNaming: UInt8, Sendable {
        /// No place id: the event's own id names its place.
        case none
        /// A place id, the name.
        case given
        /// An empty place id (as none, kept so that it reads back as given).
        case empty
    }

    /// Each event's id.
    package var ids = CheckInIdList()
    /// The name each event's place is looked up by: its place id, or its own id when it gives none.
    package var placeNames = CheckInIdList()
    /// How each event named its place.
    package var namings = ContiguousArray<PlaceNaming>()
    /// Each event's own circle, or nil.
    package var circles = ContiguousArray<Circle?>()
    /// Each event's window.
    package var windows = ContiguousArray<TimeWindow>()

    /// No events.
    /// - Complexity: O(1).
    package init() {}

    /// The events of `events`, in order.
    /// - Complexity: O(n) in the events and their ids' bytes.
    package init(_ events: some Sequence<CheckInEvent>) {
        for event in events { append(event) }
    }

    /// The number of events.
    /// - Complexity: O(1).
    package var count: Int { windows.count }

    /// Reserves room for `count` more events.
    /// - Complexity: O(n) in the events held.
    package mutating func reserveCapacity(_ count: Int) {
        ids.reserveCapacity(count, bytesEach: 8)
        placeNames.reserveCapacity(count, bytesEach: 8)
        namings.reserveCapacity(namings.count + count)
        circles.reserveCapacity(circles.count + count)
        windows.reserveCapacity(windows.count + count)
    }

    /// Appends an event whose ids are given as bytes; `placeId` nil when the event names no place.
    /// - Complexity: O(n) in the ids' lengths, amortised.
    @inlinable @inline(__always)
    package mutating func append(id: UnsafeRawBufferPointer, placeId: UnsafeRawBufferPointer?, circle: Circle?, window: TimeWindow) {
        ids.append(id)
        if let placeId, placeId.count > 0 {
            placeNames.append(placeId)
            namings.append(.given)
        } else {
            placeNames.append(id)
            namings.append(placeId == nil ? .none : .empty)
        }
        circles.append(circle)
        windows.append(window)
    }

    /// Appends an event.
    /// - Complexity: O(n) in its ids' lengths, amortised.
    package mutating func append(_ event: CheckInEvent) {
        var id = event.id
        id.withUTF8 { id in
            guard var placeId = event.placeId else {
                return append(id: UnsafeRawBufferPointer(id), placeId: nil, circle: event.circle, window: event.window)
            }
            placeId.withUTF8 { append(id: UnsafeRawBufferPointer(id), placeId: UnsafeRawBufferPointer($0), circle: event.circle, window: event.window) }
        }
    }

    /// Appends every event of `other`, in order.
    /// - Complexity: O(n) in `other`'s events and bytes.
    package mutating func append(contentsOf other: CheckInEventRows) {
        ids.append(contentsOf: other.ids)
        placeNames.append(contentsOf: other.placeNames)
        namings.append(contentsOf: other.namings)
        circles.append(contentsOf: other.circles)
        windows.append(contentsOf: other.windows)
    }

    /// Every event as a `CheckInEvent`, in order.
    /// - Complexity: O(n) in the events' bytes.
    package var events: [CheckInEvent] {
        (0..<count).map { row in
            let placeId: String? = switch namings[row] {
            case .none: nil
            case .given: placeNames.string(at: row)
            case .empty: ""
            }
            return CheckInEvent(id: ids.string(at: row), placeId: placeId, circle: circles[row], window: windows[row])
        }
    }
}
