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
    /// With `minPoints` <= 2 edits are applied incrementally: only the entries near the edited point are
    /// re-clustered, zoom by zoom (see `ClusterIncrementalEdit`). A single edit is applied to the tables as they
    /// are: a move whose clusters keep their zooms, origins and child counts rewrites only those rows in place; any
    /// other edit (insert, remove, a move that changes the layout) splices the rows it adds and deletes into the
    /// flat tables, moving the rest by segments and renumbering the entries stored in them in linear passes (see
    /// `ClusterHierarchy.applySpliced`). Several edits are applied in the numbering of the batch's start, no row
    /// moved and no entry renumbered, and every table is renumbered once at the end (see `ClusterEditBatch`).
    /// Either way the query tree keeps its nodes and takes the entries the edits changed in its overlay, which
    /// queries read after the nodes; it is rebuilt when the overlay is full. With larger `minPoints` (levels are
    /// then not in origin order), for a batch of more than `incrementalBatchLimit` edits, or for the rest of a batch
    /// whose edits so far, at their pace, make the rest cost more than the last build of the levels took (edits
    /// among densely clumped points cost ten times those among scattered ones), the levels are rebuilt once.
    /// - Throws: `ClusterError.pointOutOfRange` for a position outside the points at that moment (earlier edits
    ///   of the batch stay applied, and the index is re-clustered).
    /// - Complexity: with `minPoints` <= 2, for one edit O(e) memory moves and renumbering passes over the e entries
    ///   (none for a move in place), for m > 1 edits such passes twice in all; plus, per edit, the re-clustering of
    ///   the neighbourhood of its point. Else O(m + rebuild) for m edits.
    public mutating func apply(_ edits: [ClusterEdit]) throws(ClusterError) {
        // A batch costs two linear passes plus its edits, a rebuild a fixed amount on two threads: past a few hundred
        // edits on scattered places the rebuild is quicker (docs/PERFORMANCE.md, `cluster-round-200`);
        // `applyBatched` also turns to a rebuild when its edits prove dearer.
        guard options.minPoints <= 2, hierarchy.byOrigin.isEmpty, edits.count <= Self.incrementalBatchLimit else {
            try applyRebuilding(edits)
            return
        }
        guard edits.count == 1 else {
            try applyBatched(edits)
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

    /// The most edits `apply(_:)` applies incrementally; larger batches are applied with one rebuild.
    static let incrementalBatchLimit = 256

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

    /// Applies several edits in the numbering of the batch's start (`ClusterEditBatch`): each is planned and
    /// applied with no row moved and no entry renumbered (`ClusterHierarchy.applyInBatch`), then every table is
    /// renumbered once (`ClusterHierarchy.finishBatch`). On a position out of range the edits before it stay
    /// applied.
    /// - Complexity: O(e) twice (the numbers reserved for appended points, the renumbering at the end) plus, per
    ///   edit, the re-clustering of the neighbourhood of its point.
    private mutating func applyBatched(_ edits: [ClusterEdit]) throws(ClusterError) {
        var inserts = 0
        for edit in edits {
            switch edit {
            case .insert, .insertFeature: inserts += 1
            case .remove, .move: break
            }
        }
        var batch = ClusterEditBatch(points: points, reserved: inserts, clusterRows: hierarchy.clusterCount)
        hierarchy.beginBatch(reserving: inserts)
        var failure: ClusterError?
        // An edit's cost depends on its neighbourhood: among densely clumped points it is an order of magnitude
        // dearer than among scattered ones, and a round of them can outlast a rebuild several times over. When the
        // edits left, at the pace of those done, would cost more than the last build took, they are applied by
        // rebuilding instead. The result is the same either way.
        let clock = ContinuousClock()
        let started = clock.now
        var rebuildFrom: Int?
        edits: for (k, edit) in edits.enumerated() {
            if k > 0, lastBuildDuration > .zero, (clock.now - started) / k * (edits.count - k) > lastBuildDuration {
                rebuildFrom = k
                break edits
            }
            switch edit {
            case .insertFeature(let feature):
                let v = ClusterPoints.values(of: feature, options: options)
                editInBatch(.append(feature.location, numbers: v.numbers, category: v.category), batch: &batch)
            case .insert(let coordinate):
                editInBatch(.append(coordinate, numbers: [], category: nil), batch: &batch)
            case .remove(let i), .move(let i, _):
                guard i >= 0, i < batch.count else {
                    failure = .pointOutOfRange(i, count: batch.count)
                    break edits
                }
                if case .move(_, let coordinate) = edit { editInBatch(.move(i, coordinate), batch: &batch) } else { editInBatch(.remove(i), batch: &batch) }
            }
        }
        points = points.finishing(batch, positions: hierarchy.leafPositions)
        hierarchy.finishBatch(batch, points: points)
        if let failure { throw failure }
        if let rebuildFrom { try applyRebuilding(Array(edits[rebuildFrom...])) }
    }

    /// One edit of a batch: planned on the hierarchy as the batch left it (`ClusterIncrementalEdit`, in the batch's
    /// numbering), its changed entries set aside in the query tree, then applied (`ClusterHierarchy.applyInBatch`).
    private mutating func editInBatch(_ change: PointChange, batch: inout ClusterEditBatch) {
        let number: Int
        var added: (coordinate: Coordinate, origin: Int)?
        let point: ClusterHierarchy.EditedPoint
        switch change {
        case .append(let c, let numbers, let category):
            number = batch.append(c, numbers: numbers, category: category)
            added = (c, number)
            point = .appended
        case .remove(let i):
            number = batch.number(ofPosition: i)
            point = .removed(number)
        case .move(let i, let c):
            number = batch.number(ofPosition: i)
            added = (c, number)
            point = .moved(number)
        }
        // The plan (which holds the tables) is gone before the tables are written, so they are not copied.
        let edit: ClusterHierarchy.PlannedEdit = {
            var removedPoint: Int?
            if case .append = change {} else { removedPoint = number }
            let plan = ClusterIncrementalEdit(hierarchy: hierarchy, coordinates: batch.coordinates, options: options,
                                              removedPoint: removedPoint, addedPoint: added)
            return ClusterHierarchy.PlannedEdit(fresh: plan.fresh, removedClusters: plan.removedClusters, point: point)
        }()
        let detached = hierarchy.detach(for: edit)
        switch change {
        case .append: break
        case .remove: batch.remove(number: number)
        case .move(_, let c): batch.move(number: number, to: c)
        }
        hierarchy.applyInBatch(edit, point: number, position: added.map { ClusterPoints.position(of: $0.coordinate, precision: options.precision) },
                               detached: detached, deletedClusters: &batch.deletedClusters)
    }

    /// Applies edits to the points, then rebuilds every level once.
    private mutating func applyRebuilding(_ edits: [ClusterEdit]) throws(ClusterError) {
        defer { (hierarchy, lastBuildDuration) = Self.build(points, options: options) }
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
