/// What a traversal does with the items inside its latitude/longitude bracket.
protocol PointVisitor {
    /// Whether every item of `node` is a result, so the node can be emitted without testing its items
    /// (the containment shortcut). The bracket being traversed is given; returning false is always safe.
    func containsWhole(_ node: PointIndex.Frame, south: Double, north: Double, west: Double, east: Double) -> Bool
    /// Called for each item inside the bracket.
    mutating func visit(item: UInt32, longitude: Double, latitude: Double, stats: inout QueryStats)
    /// Called for each item of a node for which `containsWhole` returned true.
    mutating func accept(item: UInt32)
}

extension PointIndex {
    /// A pending node: positions `[lo, hi)`, its split axis, and bounds derived from its ancestors' splits.
    struct Frame {
        var lo: Int
        var hi: Int
        var axis: Int
        var minLongitude: Double
        var minLatitude: Double
        var maxLongitude: Double
        var maxLatitude: Double

        static func root(count: Int) -> Frame {
            Frame(lo: 0, hi: count, axis: Axis.longitude, minLongitude: -180, minLatitude: -90, maxLongitude: 180, maxLatitude: 90)
        }

        /// The position of the item that splits the node (a node longer than a bucket).
        var middle: Int { (lo + hi) >> 1 }

        /// The node's halves either side of its middle item, whose coordinate on the node's axis is `split`:
        /// each bounded by it on that axis and split on the other axis next. Either may be empty (`lo == hi`).
        @inline(__always)
        func halves(split: Double) -> (low: Frame, high: Frame) {
            var low = self, high = self
            low.hi = middle
            high.lo = middle + 1
            low.axis = 1 - axis
            high.axis = 1 - axis
            if axis == Axis.longitude {
                low.maxLongitude = split
                high.minLongitude = split
            } else {
                low.maxLatitude = split
                high.minLatitude = split
            }
            return (low, high)
        }
    }

    /// Longest possible chain of pending nodes: the tree is at most 33 levels deep for 2³² points, and a
    /// depth-first walk keeps at most one sibling per level plus the current node.
    static let maxStackDepth = 80

    /// Visits every item with latitude in `south...north` and longitude in `west...east` (no wrap-around),
    /// depth first, pruning with split values; no allocation (the stack lives on the call stack).
    func traverse<V: PointVisitor>(
        south: Double, north: Double, west: Double, east: Double,
        visitor: inout V, stats: inout QueryStats
    ) {
        guard !ids.isEmpty else { return }
        let bucket = bucketSize
        ids.withUnsafeBufferPointer { idBuffer in
            coordinates.withUnsafeBufferPointer { coordinateBuffer in
                withUnsafeTemporaryAllocation(of: Frame.self, capacity: PointIndex.maxStackDepth) { stack in
                    stack[0] = Frame.root(count: idBuffer.count)
                    var top = 1
                    while top > 0 {
                        top -= 1
                        let node = stack[top]
                        stats.nodesVisited += 1
                        if visitor.containsWhole(node, south: south, north: north, west: west, east: east) {
                            // Containment shortcut: the node's bounds are inside the query.
                            for p in node.lo..<node.hi { visitor.accept(item: idBuffer[p]) }
                            stats.acceptedWithoutTest += node.hi - node.lo
                            continue
                        }
                        if node.hi - node.lo <= bucket {
                            stats.candidates += node.hi - node.lo
                            for p in node.lo..<node.hi {
                                let longitude = coordinateBuffer[2 * p + Axis.longitude]
                                let latitude = coordinateBuffer[2 * p + Axis.latitude]
                                if longitude >= west, longitude <= east, latitude >= south, latitude <= north {
                                    visitor.visit(item: idBuffer[p], longitude: longitude, latitude: latitude, stats: &stats)
                                }
                            }
                            continue
                        }
                        let middle = node.middle
                        let longitude = coordinateBuffer[2 * middle + Axis.longitude]
                        let latitude = coordinateBuffer[2 * middle + Axis.latitude]
                        stats.candidates += 1
                        if longitude >= west, longitude <= east, latitude >= south, latitude <= north {
                            visitor.visit(item: idBuffer[middle], longitude: longitude, latitude: latitude, stats: &stats)
                        }
                        let onLongitude = node.axis == Axis.longitude
                        let (low, high) = node.halves(split: onLongitude ? longitude : latitude)
                        let goLow = onLongitude ? west <= longitude : south <= latitude
                        let goHigh = onLongitude ? east >= longitude : north >= latitude
                        if goHigh, high.lo < high.hi {
                            stack[top] = high
                            top += 1
                        }
                        if goLow, low.lo < low.hi {
                            stack[top] = low
                            top += 1
                        }
                    }
                }
            }
        }
    }

    /// Runs `traverse` once per disjoint longitude range of `ranges`.
    func traverse<V: PointVisitor>(
        south: Double, north: Double, longitudes ranges: LongitudeRanges,
        visitor: inout V, stats: inout QueryStats
    ) {
        traverse(south: south, north: north, west: ranges.first.lowerBound, east: ranges.first.upperBound,
                 visitor: &visitor, stats: &stats)
        if ranges.hasSecond {
            traverse(south: south, north: north, west: ranges.second.lower, east: ranges.second.upper,
                     visitor: &visitor, stats: &stats)
        }
    }

    // MARK: - Box queries

    /// The items inside `box` (edges inclusive; across the antimeridian when `box.west > box.east`), in
    /// ascending item order.
    /// - Complexity: O(√n + k log k) for k results on typical data (O(√n + k) for the search itself).
    public func search(in box: BoundingBox) -> [Int] {
        var results: [Int] = []
        search(in: box, into: &results)
        results.sort()
        return results
    }

    /// Appends the items inside `box` to `results` in tree order (deterministic for the same data), allocating
    /// nothing when `results` has the capacity; returns the query's counters.
    /// - Complexity: O(√n + k) for k results on typical data.
    @discardableResult
    public func search(in box: BoundingBox, into results: inout [Int]) -> QueryStats {
        var stats = QueryStats()
        var visitor = CollectItems()
        swap(&visitor.results, &results)
        traverse(south: box.south, north: box.north, longitudes: box.longitudeRanges, visitor: &visitor, stats: &stats)
        swap(&visitor.results, &results)
        stats.results = visitor.count
        return stats
    }
}

/// Appends every item in the bracket (box queries).
struct CollectItems: PointVisitor {
    var results: [Int] = []
    var count = 0

    /// The box is the bracket: a node whose bounds are inside it is wholly inside.
    @inline(__always)
    func containsWhole(_ node: PointIndex.Frame, south: Double, north: Double, west: Double, east: Double) -> Bool {
        node.minLongitude >= west && node.maxLongitude <= east && node.minLatitude >= south && node.maxLatitude <= north
    }

    @inline(__always)
    mutating func visit(item: UInt32, longitude: Double, latitude: Double, stats: inout QueryStats) {
        results.append(Int(item))
        count += 1
    }

    @inline(__always)
    mutating func accept(item: UInt32) {
        results.append(Int(item))
        count += 1
    }
}
