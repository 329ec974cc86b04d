/// The shapes of a `FeatureIndex`'s features, found and indexed together: the extent tree over every part of
/// every shape (`ShapeExtentIndex`, items are feature positions) and one bit per feature that has a shape.
///
/// Built by `FeatureShapeCache` at the first query that needs it. A class so that the cache can hand one built
/// value to every thread.
final class FeatureShapeIndex: Sendable {
    /// The parts' extents; items are feature positions.
    let extents: ShapeExtentIndex
    /// Bit `p % 64` of word `p / 64` is set when feature `p` has a shape; empty when none has.
    let shaped: ContiguousArray<UInt64>
    /// The number of features with a shape.
    let shapeCount: Int

    /// Finds and indexes the shapes of `features`.
    /// - Complexity: O(n) to find them (a mapped list reads only records), plus O(v + p log p) for v vertices in
    ///   p parts.
    init(_ features: FeatureList) {
        var entries: [ShapeExtentIndex.Entry] = []
        var shaped = ContiguousArray<UInt64>()
        var shapeCount = 0
        features.forEachShape { position, shape in
            // Allocated at the first shape: an index of points alone pays nothing.
            if shaped.isEmpty { shaped = ContiguousArray(repeating: 0, count: (features.count + 63) / 64) }
            shaped[position >> 6] |= 1 << UInt64(position & 63)
            shapeCount += 1
            shape.appendPartExtents(item: position, to: &entries)
        }
        extents = ShapeExtentIndex(entries)
        self.shaped = shaped
        self.shapeCount = shapeCount
    }

    /// Whether feature `position` has a shape.
    /// - Complexity: O(1).
    @inline(__always)
    func hasShape(_ position: Int) -> Bool {
        shapeCount > 0 && shaped[position >> 6] & (1 << UInt64(position & 63)) != 0
    }

    /// The positions of the features with a part whose extent meets the box (edges inclusive; across the
    /// antimeridian when west > east, 180 and -180 one meridian), ascending, each once.
    /// - Complexity: O(log p + k log k) for k parts found.
    func candidates(in box: BoundingBox, stats: inout QueryStats) -> [Int] {
        var found: [Int] = []
        guard shapeCount > 0 else { return found }
        let ranges = box.longitudeRanges
        stats.add(extents.search(west: ranges.first.lowerBound, south: box.south, east: ranges.first.upperBound,
                                 north: box.north, into: &found))
        if ranges.hasSecond {
            stats.add(extents.search(west: ranges.second.lower, south: box.south, east: ranges.second.upper,
                                     north: box.north, into: &found))
        }
        FeatureShapeIndex.sortAndRemoveDuplicates(&found)
        return found
    }

    /// Sorts `items` and keeps one of each.
    /// - Complexity: O(k log k).
    static func sortAndRemoveDuplicates(_ items: inout [Int]) {
        items.sort()
        var unique = 0
        for position in items.indices where unique == 0 || items[position] != items[unique - 1] {
            items[unique] = items[position]
            unique += 1
        }
        items.removeLast(items.count - unique)
    }

    /// The positions of the features with a part whose extent holds `point` (at a pole, every part reaching that
    /// pole; at ±180, parts at either), ascending, each once: the candidates `Shape.covers` decides.
    /// - Complexity: O(log p + k log k) for k parts found.
    func candidates(covering point: Coordinate, stats: inout QueryStats) -> [Int] {
        let box = Swift.abs(point.latitude) == 90
            ? BoundingBox(unchecked: -180, point.latitude, 180, point.latitude)
            : BoundingBox(unchecked: point.longitude, point.latitude, point.longitude, point.latitude)
        // A box on one meridian of ±180 also takes in the other (`LongitudeRanges`).
        return candidates(in: box, stats: &stats)
    }
}
