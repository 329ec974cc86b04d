import CairnCore

/// One query of `cairn bench --db`, asked as the query commands ask it (`cairn bbox`, `around`, `nearest`,
/// `containing`), through the store's `FeatureIndex`.
public enum StoreQuery: Sendable, Equatable {
    /// The features inside a box (`cairn bbox`).
    case box(BoundingBox)
    /// The features within `meters` of `center` (`cairn around`).
    case radius(center: Coordinate, meters: Double)
    /// The `count` features nearest to `point` (`cairn nearest -k`).
    case nearest(point: Coordinate, count: Int)
    /// The features whose circle contains `point` (`cairn containing`).
    case containing(Coordinate)

    /// The operation's name in a queries file and in the report when queries come from a file.
    /// - Complexity: O(1).
    public var kindName: String {
        switch self {
        case .box: "box"
        case .radius: "radius"
        case .nearest: "nearest"
        case .containing: "containing"
        }
    }
}
