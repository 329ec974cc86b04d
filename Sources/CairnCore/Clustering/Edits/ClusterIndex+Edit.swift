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
    /// re-clustered, zoom by zoom (see `ClusterIncrementalEdit`). A move whose clusters keep their zooms, origins
    /// and child counts rewrites only those rows in place; any other edit (insert, remove, a move that changes the
    /// layout) splices the rows it adds and deletes into the flat tables, moving the rest by segments and
    /// renumbering the entries stored in them in linear passes (see `ClusterHierarchy.applySpliced`). Either way
    /// the query tree keeps its nodes and takes the entries the edit changed in its overlay, which queries read
    /// after the nodes; it is rebuilt when the overlay is full. With larger `minPoints` (levels are then not in
    /// origin order), or for a batch of more than `incrementalBatchLimit` edits, the levels are rebuilt once after
    /// the batch.
    /// - Throws: `ClusterError.pointOutOfRange` for a position outside the points at that moment (earlier edits
    ///   of the batch stay applied, and the index is re-clustered).
    /// - Complexity: with `minPoints` <= 2, per edit O(e) memory moves and renumbering passes over the e entries
    ///   (none for a move in place) plus the re-clustering of the neighbourhood of the point; else O(m + rebuild)
    ///   for m edits.
    public mutating func apply(_ edits: [ClusterEdit]) throws(ClusterError) {
        // A spliced edit costs about 1 % of a build (235,000 places: 2.8 ms against 250 ms for the levels): past
        // some 90 edits one rebuild is cheaper.
        guard options.minPoints <= 2, hierarchy.byOrigin.isEmpty, edits.count <= Self.incrementalBatchLimit else {
            try applyRebuilding(edits)
            return
        }
        for edit in edits {
            switch edit {
            case .insertFeature(let feature):
                let v = ClusterPoints.values(of: feature, options: options)
                editIncrementally(.append(feature.location, numbers: v.numbers, category: v.category))
            case .insert(let coordinate):
                editIncrementally(.append(coordinate, numbers: [], category: nil))
            case .remove(let i):
                guard i >= 0, i < points.count else { throw .pointOutOfRange(i, count: points.count) }
                editIncrementally(.remove(i))
            case .move(let i, let coordinate):
                guard i >= 0, i < points.count else { throw .pointOutOfRange(i, count: points.count) }
                editIncrementally(.move(i, coordinate))
            }
        }
    }

    /// The most edits `apply(_:)` applies one by one; larger batches are applied with one rebuild.
    static let incrementalBatchLimit = 64

    /// One change to the points, as `editIncrementally` applies it.
    private enum PointChange {
        case append(Coordinate, numbers: [Double], category: String?)
        case remove(Int)
        case move(Int, Coordinate)
    }

    /// Re-clusters around one point change: plans it on the tables as they are (`ClusterIncrementalEdit`), sets the
    /// entries it changes aside in the query tree, edits the points, then rewrites the tables: in place when a
    /// move keeps their layout, else by splicing rows in and out (`ClusterHierarchy.applySpliced`). The hierarchy
    /// lets go of the points' positions while they change, so no table is copied.
    private mutating func editIncrementally(_ change: PointChange) {
        let point: ClusterHierarchy.EditedPoint
        var added: (coordinate: Coordinate, origin: Int)?
        switch change {
        case .append(let c, _, _):
            point = .appended
            added = (c, points.count)
        case .remove(let i):
            point = .removed(i)
        case .move(let i, let c):
            point = .moved(i)
            added = (c, i)
        }
        // The plan (which holds the tables) is gone before the tables are written, so they are not copied.
        let planned: (edit: ClusterHierarchy.PlannedEdit, pairing: [Int]?) = {
            var removedPoint: Int?
            if case .remove(let i) = change { removedPoint = i }
            if case .move(let i, _) = change { removedPoint = i }
            let plan = ClusterIncrementalEdit(hierarchy: hierarchy, coordinates: points.coordinates, options: options,
                                              removedPoint: removedPoint, addedPoint: added)
            var pairing: [Int]?
            if case .move(let i, _) = change { pairing = hierarchy.inPlacePairing(plan, movedPoint: i) }
            return (ClusterHierarchy.PlannedEdit(fresh: plan.fresh, removedClusters: plan.removedClusters, point: point), pairing)
        }()
        let edit = planned.edit
        let detached = planned.pairing.map { hierarchy.detachInPlace(fresh: edit.fresh, removedClusters: edit.removedClusters, pairing: $0) }
            ?? hierarchy.detach(for: edit)
        hierarchy.leafPositions = []
        switch change {
        case .append(let c, let numbers, let category): points.append(c, numbers: numbers, category: category)
        case .remove(let i): points.remove(at: i)
        case .move(let i, let c): points.move(at: i, to: c)
        }
        if let pairing = planned.pairing {
            hierarchy.moveInPlace(fresh: edit.fresh, removedClusters: edit.removedClusters, pairing: pairing, detached: detached, points: points)
        } else {
            hierarchy.applySpliced(edit, detached: detached, points: points, options: options)
        }
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
