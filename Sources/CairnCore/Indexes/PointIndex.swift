/// A static, flat, pointer-free index of points for exact box, radius and nearest queries.
///
/// A k-d tree with leaf buckets stored in place, after kdbush (V. Agafonkin) and J. L. Bentley,
/// "Multidimensional binary search trees used for associative searching" (CACM 1975): items are reordered so
/// that every range `[lo, hi)` longer than a bucket is split at its middle position `m`, with every item of
/// `[lo, m)` at or below item `m` and every item of `(m, hi)` at or above it on the node's axis (longitude at
/// even depths, latitude at odd ones). Splits are found with Floyd and Rivest's SELECT (CACM 1975), so building
/// is O(n log n) without a full sort. Nodes are implicit: no node array, no pointers; a node's bounds are
/// derived from its ancestors' split values during a query.
///
/// Storage is two flat buffers: item indices (`UInt32`, 4 B) and coordinates (`Double` longitude, latitude
/// interleaved, 16 B): 20 bytes per point. Items are 0-based indices into the input; every query returns items.
/// Results are exact under the chosen `DistanceModel`: cheap bounds prune and decide most candidates, and the
/// undecided ones get the model's full distance computation.
public struct PointIndex: Sendable {
    /// Item index at each position of the tree order.
    let ids: IndexBuffer<UInt32>
    /// Longitude and latitude (degrees) at each position: `coordinates[2 * p + Axis.longitude]`, `[2 * p + Axis.latitude]`.
    let coordinates: IndexBuffer<Double>
    /// Ranges this short or shorter are leaves scanned linearly.
    let bucketSize: Int

    /// Offsets within a position's coordinate pair, and the split axis of a node.
    enum Axis {
        static let longitude = 0
        static let latitude = 1
    }

    /// Builds the index over `coordinates`; item `i` is the `i`-th coordinate of the sequence.
    ///
    /// - Parameters:
    ///   - coordinates: the points, at most `UInt32.max` of them.
    ///   - bucketSize: leaf size; larger builds faster and scans more per leaf. At least 2; 32 by default
    ///     (the fastest of 16, 32 and 64 in `cairn bench`, see docs/PERFORMANCE.md).
    /// - Complexity: O(n log n) time; 20 bytes per point of memory kept (24 more per point while building).
    public init(_ coordinates: some Sequence<Coordinate>, bucketSize: Int = 32) {
        let built = PointIndex.build(coordinates, bucketSize: max(2, bucketSize))
        self.ids = built.ids
        self.coordinates = built.coordinates
        self.bucketSize = max(2, bucketSize)
        #if DEBUG
        _checkInvariants()
        #endif
    }

    /// The number of points indexed.
    /// - Complexity: O(1).
    public var count: Int { ids.count }

    /// Whether the index holds no points.
    /// - Complexity: O(1).
    public var isEmpty: Bool { ids.isEmpty }

    /// Bytes held by the index's buffers (capacity, not just count): 20 per point; 0 for an index read in place
    /// from a mapped snapshot (its pages belong to the file).
    /// - Complexity: O(1).
    public var memoryBytes: Int { ids.ownedBytes + self.coordinates.ownedBytes }

    /// An index over buffers already in k-d order (a mapped snapshot's), unchecked: the caller has checked them.
    /// - Complexity: O(1).
    init(ids: IndexBuffer<UInt32>, coordinates: IndexBuffer<Double>, bucketSize: Int) {
        self.ids = ids
        self.coordinates = coordinates
        self.bucketSize = bucketSize
    }
}
