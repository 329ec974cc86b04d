/// The entries of one transient level that take part in the greedy pass, in level order, with copies of their
/// positions and weights. Entries left out (points that nothing lies near, see `ClusterActivation`) keep their
/// place in the level implicitly: their key is their input position.
struct ClusterLevel {
    struct Item {
        var x: Double
        var y: Double
        /// Level order: an anchor (the input position of a point) in the high 32 bits, a rank among the entries
        /// sharing it in the low 32. A point never moved has its own position as anchor and rank 0; a cluster takes
        /// its centre's key; entries gathered by an entry whose group stays below `minPoints` move right after it,
        /// under its anchor. A point left out of the level sits by its own position: between the entries of lower
        /// and higher anchors.
        var key: UInt64
        var entry: UInt32
        var weight: UInt32
    }

    var items: [Item] = []

    var count: Int { items.count }

    /// Makes the keys strictly increasing again after entries moved under another anchor (ranks 0, 1, 2, ... per
    /// anchor, in level order).
    mutating func renumberRanks() {
        var anchor = UInt64.max, rank: UInt64 = 0
        for i in items.indices {
            let a = items[i].key >> 32
            if a != anchor { anchor = a; rank = 0 } else { rank += 1 }
            items[i].key = a << 32 | rank
        }
    }

    /// This level with points joining it (input positions, ascending), merged in level order.
    func merged(joining points: ArraySlice<UInt32>, positions: [ClusterPosition]) -> ClusterLevel {
        guard !points.isEmpty else { return self }
        var result = ClusterLevel()
        result.items.reserveCapacity(count + points.count)
        var i = 0
        for point in points {
            let k = UInt64(point) << 32
            while i < count, items[i].key < k {
                result.items.append(items[i])
                i += 1
            }
            result.items.append(Item(x: positions[Int(point)].x, y: positions[Int(point)].y, key: k, entry: point, weight: 1))
        }
        result.items.append(contentsOf: items[i...])
        return result
    }
}
