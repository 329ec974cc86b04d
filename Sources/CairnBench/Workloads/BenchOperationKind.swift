import CairnCore

/// The kinds of query `cairn bench` times, each with its fixed parameter.
public enum BenchOperationKind: Hashable, Sendable {
    /// Box queries sized to return about this many results.
    case box(targetResults: Int)
    /// Radius queries of this many metres (WGS84 by default).
    case radius(meters: Double)
    /// Nearest queries for this many neighbours.
    case nearest(count: Int)
    /// Which circles contain a point.
    case containment

    /// Every operation, in report order.
    public static let all: [BenchOperationKind] = [
        .box(targetResults: 10), .box(targetResults: 100), .box(targetResults: 1_000),
        .radius(meters: 1_000), .radius(meters: 25_000), .radius(meters: 150_000),
        .nearest(count: 1), .nearest(count: 20), .nearest(count: 100),
        .containment,
    ]

    /// The operation's name in reports and in `--ops`: `box-100`, `radius-25km`, `nearest-20`, `containment`.
    /// - Complexity: O(1).
    public var name: String {
        switch self {
        case .box(let target): "box-\(target)"
        case .radius(let meters): meters >= 1_000 && meters.truncatingRemainder(dividingBy: 1_000) == 0
            ? "radius-\(Int(meters / 1_000))km" : "radius-\(Int(meters.rounded()))m"
        case .nearest(let count): "nearest-\(count)"
        case .containment: "containment"
        }
    }
}
