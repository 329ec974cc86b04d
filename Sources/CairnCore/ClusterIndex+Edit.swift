/// One change to the points of a `ClusterIndex`.
public enum ClusterEdit: Sendable {
    /// Appends a feature (its location and aggregated attributes) at the end of the input order.
    case insertFeature(Feature)
    /// Appends a bare coordinate at the end of the input order.
    case insert(Coordinate)
    /// Removes the point at this input position; later points move up by one.
    case remove(at: Int)
    /// Moves the point at this input position to a new coordinate; its place in the input order is kept.
    case move(at: Int, to: Coordinate)
}

extension ClusterIndex {
    /// Applies edits in order. The result equals a fresh build over the edited points in the same order (ids
    /// included). Projections and attribute values of unchanged points are reused.
    ///
    /// With `minPoints` <= 2 each edit is applied incrementally: only the entries near the edited point are
    /// re-clustered, zoom by zoom (see `ClusterIncrementalEdit`), and the flat tables and query tree are laid out
    /// again; a move whose clusters keep their zooms, origins and child counts rewrites only those rows in place
    /// and hands the entries it changed to the query tree's overlay, which queries read after the tree's nodes (the
    /// tree is rebuilt when the overlay is full, or on an edit that is not in place). With larger `minPoints` (levels are then not in origin order), or for a batch of more than
    /// `incrementalBatchLimit` edits, the levels are rebuilt once after the batch.
    /// - Throws: `ClusterError.pointOutOfRange` for a position outside the points at that moment (earlier edits
    ///   of the batch stay applied, and the index is re-clustered).
    /// - Complexity: with `minPoints` <= 2, per edit O(e) linear passes over the e entries plus the re-clustering
    ///   of the neighbourhood of the point; else O(m + rebuild) for m edits.
    public mutating func apply(_ edits: [ClusterEdit]) throws(ClusterError) {
        // An incremental edit that changes the layout lays the tables out again (about a tenth of a build): past a
        // few edits, one rebuild is cheaper.
        guard options.minPoints <= 2, hierarchy.byOrigin.isEmpty, edits.count <= Self.incrementalBatchLimit else {
            try applyRebuilding(edits)
            return
        }
        for edit in edits {
            switch edit {
            case .insertFeature(let feature):
                points.append(feature, options: options)
                appendedIncrementally()
            case .insert(let coordinate):
                points.append(coordinate, numbers: [], category: nil)
                appendedIncrementally()
            case .remove(let i):
                guard i >= 0, i < points.count else { throw .pointOutOfRange(i, count: points.count) }
                points.remove(at: i)
                let plan = ClusterIncrementalEdit(hierarchy: hierarchy, options: options, removedPoint: i, addedPoint: nil)
                hierarchy = ClusterHierarchy(updating: hierarchy, plan: plan, points: points, options: options, removedPoint: i)
            case .move(let i, let coordinate):
                guard i >= 0, i < points.count else { throw .pointOutOfRange(i, count: points.count) }
                points.move(at: i, to: coordinate)
                movedIncrementally(i)
            }
        }
    }

    /// The most edits `apply(_:)` applies one by one; larger batches are applied with one rebuild.
    static let incrementalBatchLimit = 8

    /// Re-clusters after point `i` of `points` moved: in place when the move keeps the tables' layout, else by
    /// laying them out again.
    private mutating func movedIncrementally(_ i: Int) {
        // The plan (which holds the tables) is gone before the tables are written in place, so they are not copied.
        let inPlace: (fresh: [ClusterIncrementalEdit.Fresh], removed: Set<Int>, pairing: [Int])? = {
            let plan = ClusterIncrementalEdit(hierarchy: hierarchy, options: options, removedPoint: i,
                                              addedPoint: (points.x[i], points.y[i], i))
            guard let pairing = hierarchy.inPlacePairing(plan, movedPoint: i, options: options) else {
                hierarchy = ClusterHierarchy(updating: hierarchy, plan: plan, points: points, options: options, removedPoint: nil)
                return nil
            }
            return (plan.fresh, plan.removedClusters, pairing)
        }()
        if let edit = inPlace {
            hierarchy.moveInPlace(fresh: edit.fresh, removedClusters: edit.removed, pairing: edit.pairing, points: points)
        }
    }

    /// Re-clusters after the last point was appended to `points`.
    private mutating func appendedIncrementally() {
        let i = points.count - 1
        let plan = ClusterIncrementalEdit(hierarchy: hierarchy, options: options, removedPoint: nil,
                                          addedPoint: (points.x[i], points.y[i], i))
        hierarchy = ClusterHierarchy(updating: hierarchy, plan: plan, points: points, options: options, removedPoint: nil)
    }

    /// Applies edits to the points, then rebuilds every level once.
    private mutating func applyRebuilding(_ edits: [ClusterEdit]) throws(ClusterError) {
        defer { hierarchy = ClusterHierarchy(points: points, options: options) }
        for edit in edits {
            switch edit {
            case .insertFeature(let feature):
                points.append(feature, options: options)
            case .insert(let coordinate):
                points.append(coordinate, numbers: [], category: nil)
            case .remove(let i):
                guard i >= 0, i < points.count else { throw .pointOutOfRange(i, count: points.count) }
                points.remove(at: i)
            case .move(let i, let coordinate):
                guard i >= 0, i < points.count else { throw .pointOutOfRange(i, count: points.count) }
                points.move(at: i, to: coordinate)
            }
        }
    }

    /// Appends a point at the end of the input order and re-clusters.
    /// - Complexity: as `apply(_:)` for one edit.
    public mutating func insert(_ coordinate: Coordinate) {
        try? apply([.insert(coordinate)])
    }

    /// Appends a feature at the end of the input order and re-clusters.
    /// - Complexity: as `apply(_:)` for one edit.
    public mutating func insert(_ feature: Feature) {
        try? apply([.insertFeature(feature)])
    }

    /// Removes the point at `index` and re-clusters.
    /// - Throws: `ClusterError.pointOutOfRange`.
    /// - Complexity: as `apply(_:)`.
    public mutating func remove(at index: Int) throws(ClusterError) {
        try apply([.remove(at: index)])
    }

    /// Moves the point at `index` to `coordinate` and re-clusters.
    /// - Throws: `ClusterError.pointOutOfRange`.
    /// - Complexity: as `apply(_:)`.
    public mutating func move(at index: Int, to coordinate: Coordinate) throws(ClusterError) {
        try apply([.move(at: index, to: coordinate)])
    }
}
