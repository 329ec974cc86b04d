import CairnCore
import CairnIO

/// The cluster hierarchy over every served feature, with the features in its input order (the index's order at the
/// generation it matches) and their tile shapes: what `/clusters` and `/tiles` answer from. It follows the index's
/// edits off the writers' path (`ServedStore+Hierarchy`), as the `Edit`s the served content's edits give, keeping
/// its own list of the features.
struct ServedHierarchy: Sendable {
    /// One change of the features, in the numbering of the moment it is applied.
    enum Edit: Sendable {
        /// The feature at this position leaves; later ones move up by one.
        case remove(at: Int)
        /// A feature joins at the end.
        case append(Feature)
    }

    /// The hierarchy over `features`.
    private(set) var clusters: ClusterIndex
    /// The features in the hierarchy's input order.
    private(set) var features: [Feature]
    /// The lines and polygons of `features`, for the tiles' `shapes` layer.
    private(set) var shapes: TileShapes
    /// How many of `features` `shapes` draws: while none is, an edit that adds none keeps `shapes` as it is.
    private var drawnShapeCount: Int

    /// The hierarchy over `features`, in their order.
    /// - Complexity: O(n log n).
    init(features: [Feature], options: ClusterOptions) {
        clusters = ClusterIndex(features: features, options: options)
        self.features = features
        shapes = TileShapes(features: features)
        drawnShapeCount = features.lazy.filter(Self.isDrawnAsShape).count
    }

    /// Applies `edits` in order (as `ServedContent.apply` gives them): the result equals a fresh `init` over the
    /// features they leave (the index's, in its order, at the generation they bring it to).
    /// - Throws: `ClusterError` for a position outside the features (not expected: positions come from the index);
    ///   the hierarchy must then be built afresh.
    /// - Complexity: the hierarchy's splice (`ClusterIndex.apply`: per edit, or one rebuild of the levels past a
    ///   few dozen edits), O(n + m²) for the features' list after m edits; `shapes` is rebuilt, O(n), only when
    ///   drawn shapes were or are among the features.
    mutating func apply(_ edits: [Edit]) throws {
        var count = features.count
        let clusterEdits = try edits.map { edit throws(ClusterError) -> ClusterEdit in
            switch edit {
            case .remove(let position):
                guard position >= 0, position < count else { throw .pointOutOfRange(position, count: count) }
                count -= 1
                return .remove(at: position)
            case .append(let feature):
                count += 1
                return .insertFeature(feature)
            }
        }
        try clusters.apply(clusterEdits)
        features = Self.features(features, after: edits)
        let hadShapes = drawnShapeCount > 0
        drawnShapeCount = features.lazy.filter(Self.isDrawnAsShape).count
        // Shapes are listed by position in `features`, which a removal shifts: rebuilt whenever there are any.
        if hadShapes || drawnShapeCount > 0 { shapes = TileShapes(features: features) }
    }

    /// `features` after `edits` (positions valid, as `apply` checked), in one pass over the list rather than a move
    /// of its tail at every removal: the removals are first traced back to positions in `features` or in the
    /// appended list. The hierarchy keeps its own list, so a round never reads the index that writers change.
    /// - Complexity: O(n + m²) for n features and m edits.
    static func features(_ features: [Feature], after edits: [Edit]) -> [Feature] {
        var removed: [Int] = [] // positions in `features`, ascending
        var appended: [Feature] = []
        for edit in edits {
            switch edit {
            case .append(let feature):
                appended.append(feature)
            case .remove(let position):
                let kept = features.count - removed.count
                guard position < kept else {
                    appended.remove(at: position - kept)
                    continue
                }
                // The position-th kept feature: each removed one at or before it pushes it one further.
                var original = position, slot = 0
                while slot < removed.count, removed[slot] <= original {
                    original += 1
                    slot += 1
                }
                removed.insert(original, at: slot)
            }
        }
        var result: [Feature] = []
        result.reserveCapacity(features.count - removed.count + appended.count)
        var start = 0
        for position in removed {
            result.append(contentsOf: features[start..<position])
            start = position + 1
        }
        result.append(contentsOf: features[start...])
        result.append(contentsOf: appended)
        return result
    }

    /// Whether `TileShapes` draws `feature` as a shape (a line, polygon or multi-point; a point is a pin only).
    private static func isDrawnAsShape(_ feature: Feature) -> Bool {
        guard let shape = feature.shape else { return false }
        return shape.kind != .point
    }
}
