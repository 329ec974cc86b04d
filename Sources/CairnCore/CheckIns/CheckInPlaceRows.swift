/// Places as read, in input order, before the validator numbers them: ids as bytes (`CheckInIdList`), circles,
/// and the few areas. The form the reference loaders fill and `CheckInValidator` builds from.
///
/// Appending a parsed place is `@inlinable` (the setters are package-wide for it), as `CheckInEventRows`'s.
package struct CheckInPlaceRows: Sendable {
    /// Each place's id.
    package var ids = CheckInIdList()
    /// Each place's circle (its radius unused when it has an area).
    package var circles = ContiguousArray<Circle>()
    /// The places with an area (a Polygon or MultiPolygon): row and area, by row.
    package private(set) var shapes: [(row: Int, shape: Shape)] = []

    /// No places.
    /// - Complexity: O(1).
    package init() {}

    /// The places of `places`, in order.
    /// - Complexity: O(n) in the places and their ids' bytes.
    package init(_ places: some Sequence<CheckInPlace>) {
        for place in places { append(place) }
    }

    /// The number of places.
    /// - Complexity: O(1).
    package var count: Int { circles.count }

    /// Reserves room for `count` more places.
    /// - Complexity: O(n) in the places held.
    package mutating func reserveCapacity(_ count: Int) {
        ids.reserveCapacity(count, bytesEach: 8)
        circles.reserveCapacity(circles.count + count)
    }

    /// Appends a place whose id is given as bytes.
    /// - Complexity: O(n) in the id's length, amortised.
    @inlinable @inline(__always)
    package mutating func append(id: UnsafeRawBufferPointer, circle: Circle) {
        ids.append(id)
        circles.append(circle)
    }

    /// Appends a place with an area (a Polygon or MultiPolygon, which then decides), its id given as bytes.
    /// - Complexity: O(n) in the id's length, amortised.
    package mutating func append(id: UnsafeRawBufferPointer, circle: Circle, area: Shape) {
        shapes.append((count, area))
        ids.append(id)
        circles.append(circle)
    }

    /// Appends a place.
    /// - Complexity: O(n) in the id's length, amortised.
    package mutating func append(_ place: CheckInPlace) {
        if let shape = place.shape { shapes.append((count, shape)) }
        ids.append(place.id)
        circles.append(place.circle)
    }

    /// Appends every place of `other`, in order.
    /// - Complexity: O(n) in `other`'s places and bytes.
    package mutating func append(contentsOf other: CheckInPlaceRows) {
        let offset = count
        shapes += other.shapes.map { ($0.row + offset, $0.shape) }
        ids.append(contentsOf: other.ids)
        circles.append(contentsOf: other.circles)
    }

    /// Every place as a `CheckInPlace`, in order.
    /// - Complexity: O(n + a) in the places' bytes and areas.
    package var places: [CheckInPlace] {
        var areas = [Shape?](repeating: nil, count: count)
        for (row, shape) in shapes { areas[row] = shape }
        return (0..<count).map { CheckInPlace(id: ids.string(at: $0), circle: circles[$0], shape: areas[$0]) }
    }
}
