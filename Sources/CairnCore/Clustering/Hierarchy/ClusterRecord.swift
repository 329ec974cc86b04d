/// One cluster's row of `ClusterHierarchy`, in one record: a query that reads a cluster at a scattered place (grid
/// clustering reads thousands) touches one cache line for all of it.
struct ClusterRecord: Sendable {
    /// Web Mercator position: the weighted centroid, x wrapped into [0, 1).
    var x: Double, y: Double
    /// How far from (x, y) its points' exact projections may lie, along each axis: see
    /// `ClusterHierarchy.extent(ofClusterAtX:y:count:child:)`.
    var extent: ClusterExtent
    /// Points held.
    var weight: UInt32
    /// The input position of the point it grew from (the origin entry's own origin, down to a point).
    var origin: UInt32
    /// One past its last child in `ClusterHierarchy.children` (its list starts where the previous cluster's ends).
    var childEnd: UInt32

    /// The row that edits write over (a splice's placeholder).
    static let empty = ClusterRecord(x: 0, y: 0, extent: .zero, weight: 0, origin: 0, childEnd: 0)
}
