/// The shapes of a `FeatureIndex`'s features, found and indexed together: the extent tree over every part of
/// every shape (`ShapeExtentIndex`, items are feature positions) and one bit per feature that has a shape.
///
/// Built by `FeatureShapeCache` at the first query that needs it. A class so that the cache can hand one built
/// value to every thread.
///
/// Beside the tree it keeps the rings of every polygon part in one flat buffer, in the tree's leaf order, so
/// `appendCovering` tests a candidate part where the tree found it, without reading (or, mapped, decoding) its
/// `Feature`: 16 bytes per polygon vertex and 4 per ring and part, a copy of the features' polygons (a `Feature`
/// per candidate was a third of a containment query's instructions). The edges of long rings (64 edges or more)
/// are indexed by latitude band (`RingEdgeIndex`, about 12 bytes more per such vertex), so a candidate country
/// reads the few edges near the point's latitude, not its thousands; short rings are read whole.
final class FeatureShapeIndex: Sendable {
    /// The parts' extents; items are feature positions.
    let extents: ShapeExtentIndex
    /// Bit `p % 64` of word `p / 64` is set when feature `p` has a shape; empty when none has.
    let shaped: ContiguousArray<UInt64>
    /// The number of features with a shape.
    let shapeCount: Int
    /// The rings of leaf `l` (a polygon part; none for a line or a point) are `leafRings[l]..<leafRings[l + 1]`
    /// in `rings`; `count + 1` entries (one when there are no parts).
    let leafRings: ContiguousArray<UInt32>
    /// The positions of leaf `l`'s rings are `leafPositions[l]..<leafPositions[l + 1]` in `rings.positions`;
    /// `count + 1` entries. A part of one short ring is read from these alone: reading its ring's start in
    /// `rings` first was one more dependent cache miss per candidate.
    let leafPositions: ContiguousArray<UInt32>
    /// Every polygon part's rings (closed), parts in leaf order, long rings' edges indexed by latitude band.
    let rings: RingEdgeIndex

    /// Finds and indexes the shapes of `features`.
    /// - Complexity: O(n) to find them (a mapped list reads only records), plus O(v + p log p) for v vertices in
    ///   p parts.
    init(_ features: FeatureList) {
        var entries: [ShapeExtentIndex.Entry] = []
        var shaped = ContiguousArray<UInt64>()
        var shapeCount = 0
        // The polygon parts' rings in entry order, laid out again in leaf order once the tree is built.
        var rings = FeatureShapeIndex.Rings()
        features.forEachShape { position, shape in
            // Allocated at the first shape: an index of points alone pays nothing.
            if shaped.isEmpty { shaped = ContiguousArray(repeating: 0, count: (features.count + 63) / 64) }
            shaped[position >> 6] |= 1 << UInt64(position & 63)
            shapeCount += 1
            let before = entries.count
            shape.appendPartExtents(item: position, to: &entries)
            rings.appendParts(of: shape, entries: entries.count - before)
        }
        extents = ShapeExtentIndex(entries)
        self.shaped = shaped
        self.shapeCount = shapeCount
        var inLeafOrder = FeatureShapeIndex.Rings()
        for leaf in extents.entryOfLeaf { inLeafOrder.appendPart(rings.part(Int(leaf))) }
        leafRings = inLeafOrder.partRings
        leafPositions = ContiguousArray(inLeafOrder.partRings.lazy.map { inLeafOrder.ringStarts[Int($0)] })
        self.rings = RingEdgeIndex(ringStarts: inLeafOrder.ringStarts, positions: inLeafOrder.positions)
    }

    /// Polygon parts' rings, flat, while they are gathered: part `p`'s rings are `partRings[p]..<partRings[p + 1]`,
    /// ring `r`'s positions `ringStarts[r]..<ringStarts[r + 1]`, each ring closed (`RingEdgeIndex` reads edges as
    /// consecutive positions).
    private struct Rings {
        var partRings: ContiguousArray<UInt32> = [0]
        var ringStarts: ContiguousArray<UInt32> = [0]
        var positions = ContiguousArray<Double>()

        /// Appends one part per entry `appendPartExtents` made for `shape`: a polygon's rings, nothing for a line
        /// or a point.
        mutating func appendParts(of shape: Shape, entries: Int) {
            let parts = shape.parts
            guard shape.kind.isAreal else {
                for _ in 0..<entries { partRings.append(UInt32(ringStarts.count - 1)) }
                return
            }
            // One entry per polygon, in order (`appendPartExtents`).
            for polygon in parts.polygonEnds.indices {
                for ring in parts.ringRange(ofPolygon: polygon) {
                    let range = parts.positionRange(ofRing: ring)
                    positions.append(contentsOf: parts.positions[2 * range.lowerBound..<2 * range.upperBound])
                    // An unclosed ring is closed by the edge from its last position to its first (`ShapeRing`).
                    if !range.isEmpty, parts.positions[2 * range.lowerBound] != parts.positions[2 * range.upperBound - 2]
                        || parts.positions[2 * range.lowerBound + 1] != parts.positions[2 * range.upperBound - 1] {
                        positions.append(contentsOf: parts.positions[2 * range.lowerBound...2 * range.lowerBound + 1])
                    }
                    appendRingEnd()
                }
                partRings.append(UInt32(ringStarts.count - 1))
            }
        }

        /// Part `part`'s ring starts (with the end of its last ring) and positions.
        func part(_ part: Int) -> (ringStarts: ArraySlice<UInt32>, positions: ArraySlice<Double>) {
            let rings = Int(partRings[part])...Int(partRings[part + 1])
            let first = Int(ringStarts[rings.lowerBound]), last = Int(ringStarts[rings.upperBound])
            return (ArraySlice(ringStarts[rings]), ArraySlice(positions[2 * first..<2 * last]))
        }

        /// Appends a part read from another `Rings` (`part(_:)`).
        mutating func appendPart(_ part: (ringStarts: ArraySlice<UInt32>, positions: ArraySlice<Double>)) {
            let start = Int(part.ringStarts.first ?? 0), base = positions.count / 2
            positions.append(contentsOf: part.positions)
            for end in part.ringStarts.dropFirst() { ringStarts.append(UInt32(base + Int(end) - start)) }
            partRings.append(UInt32(ringStarts.count - 1))
        }

        /// Closes the ring whose positions were just appended.
        private mutating func appendRingEnd() {
            precondition(positions.count / 2 < Int(UInt32.max), "FeatureShapeIndex holds fewer than \(UInt32.max) polygon positions")
            ringStarts.append(UInt32(positions.count / 2))
        }
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
    /// Appends to `hits`, ascending by item and at distance 0, the features whose polygon shape covers `point`
    /// (`Shape.covers`: planar in longitude and latitude, the boundary inside) and that pass `filter`: the
    /// shape half of `FeatureIndex.containing`, with the counters `candidates(covering:)` and a `Shape.covers`
    /// per candidate shape would give.
    ///
    /// Each part whose extent holds the point is tested alone, from the flat rings (`Shape.covers` is the OR of its
    /// polygons, and a polygon covers only points in its extent); a feature is read only when a filter asks.
    /// - Complexity: O(log p + k log k) for k parts found, plus O(e) for the e edges their rings read: a short
    ///   ring's all, a long ring's band at the point (`RingEdgeIndex`).
    func appendCovering(_ point: Coordinate, features: FeatureList, filter: FeatureFilter, into hits: inout [QueryHit],
                        stats: inout QueryStats) {
        guard shapeCount > 0 else { return }
        // Only a filter reads the features: the closures below copied the list and the filter (with their retains)
        // on every query when they captured them.
        if filter.acceptsAll {
            appendCovering(point, accepting: { _ in true }, into: &hits, stats: &stats)
        } else {
            appendCovering(point, accepting: { filter.matches(features[$0]) }, into: &hits, stats: &stats)
        }
    }

    /// `appendCovering` with the filter as `accepts(item)`: what `FeatureIndex.containing` calls without a filter,
    /// so that it passes no `FeatureList` (a 408-byte struct copied, with its retains, at every call).
    /// - Complexity: as `appendCovering`.
    @inline(__always)
    func appendCovering(_ point: Coordinate, accepting accepts: (Int) -> Bool, into hits: inout [QueryHit],
                        stats: inout QueryStats) {
        let latitude = point.latitude, longitude = point.longitude
        let atPole = Swift.abs(latitude) == 90
        // The box of `candidates(covering:)`: at a pole every part reaching it; on ±180 both meridians. Candidates
        // come as item << 32 | leaf; `decide` sorts them by item.
        let box = atPole ? BoundingBox(unchecked: -180, latitude, 180, latitude)
            : BoundingBox(unchecked: longitude, latitude, longitude, latitude)
        var search = QueryStats()
        extents.withLeaves(meeting: box, stats: &search) { keys in
            guard !keys.isEmpty else { return }
            decide(keys, longitude: longitude, latitude: latitude, atPole: atPole, accepting: accepts, into: &hits, stats: &stats)
        }
        stats.add(search)
    }

    /// `appendCovering`'s exact step over its candidates (`item << 32 | leaf`): sorted, then per item the filter
    /// once and its parts until one covers the point.
    /// - Complexity: O(k log k) for k candidates, plus O(e) for the e edges their rings read (`RingEdgeIndex`).
    private func decide(_ keys: UnsafeMutableBufferPointer<UInt64>, longitude: Double, latitude: Double, atPole: Bool,
                        accepting accepts: (Int) -> Bool, into hits: inout [QueryHit], stats: inout QueryStats) {
        var keys = keys
        if keys.count > 1 { keys.sort() }
        leafRings.withUnsafeBufferPointer { leafRings in
            var first = 0
            while first < keys.count {
                let item = Int(keys[first] >> 32)
                var end = first + 1
                while end < keys.count, Int(keys[end] >> 32) == item { end += 1 }
                defer { first = end }
                // A shape is areal in every part or in none; lines and points contain nothing.
                let leaf = Int(keys[first] & 0xFFFF_FFFF)
                guard leafRings[leaf] < leafRings[leaf + 1], accepts(item) else { continue }
                stats.exactChecks += 1
                for key in keys[first..<end] where partCovers(leaf: Int(key & 0xFFFF_FFFF), longitude: longitude,
                                                              latitude: latitude, atPole: atPole, leafRings: leafRings) {
                    hits.append(QueryHit(item: item, distanceMeters: 0))
                    break
                }
            }
        }
    }

    /// Whether polygon part `leaf`, whose extent holds the point, covers it: `Shape.covers` for one polygon.
    /// - Complexity: O(e) for the e edges its rings read (`RingEdgeIndex`).
    @inline(__always)
    private func partCovers(leaf: Int, longitude: Double, latitude: Double, atPole: Bool,
                            leafRings: UnsafeBufferPointer<UInt32>) -> Bool {
        // At a pole the part's extent reaches it, so one of its vertices lies on it: the pole is on its boundary.
        if atPole { return true }
        let rings = Int(leafRings[leaf])..<Int(leafRings[leaf + 1])
        let positions = Int(leafPositions[leaf])..<Int(leafPositions[leaf + 1])
        if Swift.abs(longitude) == 180 {
            return ringsCover(rings, positions: positions, x: 180, y: latitude)
                || ringsCover(rings, positions: positions, x: -180, y: latitude)
        }
        return ringsCover(rings, positions: positions, x: longitude, y: latitude)
    }

    /// The crossing test over `ringRange` (one polygon: its exterior, then its holes, at `positions`), each ring
    /// read whole or, when long, from the edges of its band holding y (`RingEdgeIndex`): on a boundary or inside
    /// an odd number.
    /// - Complexity: O(e) for the e edges the rings read.
    @inline(__always)
    private func ringsCover(_ ringRange: Range<Int>, positions: Range<Int>, x: Double, y: Double) -> Bool {
        // One ring read whole, as `RingEdgeIndex.crossing` would read it, from the part's own range.
        if ringRange.count == 1, positions.count > 0, positions.count - 1 < RingEdgeIndex.smallestBandedRing {
            return rings.positions.withUnsafeBufferPointer { ShapeRing.crossing($0, positions, x: x, y: y) } != .even
        }
        var inside = false
        for ring in ringRange {
            switch rings.crossing(ring: ring, x: x, y: y) {
            case .boundary: return true
            case .odd: inside.toggle()
            case .even: break
            }
        }
        return inside
    }
}
