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
    /// Applies edits in order, then re-clusters once. The result equals a fresh build over the edited points in
    /// the same order (ids included). Projections and attribute values of unchanged points are reused.
    /// - Throws: `ClusterError.pointOutOfRange` for a position outside the points at that moment (earlier edits
    ///   of the batch stay applied, and the index is re-clustered).
    /// - Complexity: O(m + rebuild) for m edits: the levels are rebuilt from the kept projections.
    public mutating func apply(_ edits: [ClusterEdit]) throws(ClusterError) {
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
    /// - Complexity: as `apply(_:)`.
    public mutating func insert(_ coordinate: Coordinate) {
        try? apply([.insert(coordinate)])
    }

    /// Appends a feature at the end of the input order and re-clusters.
    /// - Complexity: as `apply(_:)`.
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
