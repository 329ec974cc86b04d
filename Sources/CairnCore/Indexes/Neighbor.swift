/// An item with its distance from a query point, in metres under the query's model.
///
/// Ordered by distance, then by item index, which is the order nearest and sorted radius queries return.
public struct Neighbor: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The item's 0-based index in the input the index was built from.
    public let item: Int
    /// Distance from the query point to the item, metres.
    public let distanceMeters: Double

    /// Creates a neighbour.
    /// - Complexity: O(1).
    public init(item: Int, distanceMeters: Double) {
        self.item = item
        self.distanceMeters = distanceMeters
    }

    public static func < (lhs: Neighbor, rhs: Neighbor) -> Bool {
        lhs.distanceMeters < rhs.distanceMeters || (lhs.distanceMeters == rhs.distanceMeters && lhs.item < rhs.item)
    }

    public var description: String { "#\(item) at \(distanceMeters) m" }
}
