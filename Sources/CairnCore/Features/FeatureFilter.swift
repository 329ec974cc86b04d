/// A condition on a feature's kind and attributes, combined with any spatial query (`--kind park --where fenced=true`).
///
/// All parts must hold (AND). An absent attribute fails every comparison except `!=` and `!name`.
public struct FeatureFilter: Sendable, Equatable {
    /// Kinds accepted; empty accepts every kind.
    public var kinds: Set<FeatureKind>
    /// Attribute predicates, all of which must hold.
    public var predicates: [AttributePredicate]

    /// Creates a filter.
    public init(kinds: Set<FeatureKind> = [], predicates: [AttributePredicate] = []) {
        self.kinds = kinds
        self.predicates = predicates
    }

    /// A filter that accepts everything.
    public static let all = FeatureFilter()

    /// Whether the filter accepts everything (queries then skip it).
    public var acceptsAll: Bool { kinds.isEmpty && predicates.isEmpty }

    /// Whether `feature` passes.
    /// - Complexity: O(p) in the number of predicates.
    public func matches(_ feature: Feature) -> Bool {
        if !kinds.isEmpty, !kinds.contains(feature.kind) { return false }
        return predicates.allSatisfy { $0.matches(feature) }
    }
}

extension String {
    /// The string without leading and trailing spaces.
    var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
