#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension PointIndex {
    /// The `count` items nearest to `point` under `model`, nearest first, ties broken by item index; only
    /// items at most `maxDistance` metres away (inclusive) when it is given.
    ///
    /// Best-first search (Hjaltason and Samet, "Distance browsing in spatial databases", TODS 1999) over one
    /// priority queue holding nodes keyed by a spherical lower bound on their distance, items keyed by the
    /// same bound, and items keyed by their exact distance. An item is reported only when its exact distance
    /// is the smallest key left, so results are exact and each needs one model distance; the antimeridian
    /// and the poles need nothing special.
    /// - Complexity: O((log n + count) log n) node visits on typical data; allocates its queue.
    public func nearest(
        to point: Coordinate, count: Int, maxDistance: Double? = nil, model: DistanceModel = .wgs84
    ) -> [Neighbor] {
        var results: [Neighbor] = []
        nearest(to: point, count: count, maxDistance: maxDistance, model: model, into: &results)
        return results
    }

    /// Appends the `count` items nearest to `point` (see `nearest(to:count:maxDistance:model:)`) to
    /// `results`, nearest first; returns the query's counters.
    /// - Complexity: O((log n + count) log n) node visits on typical data; allocates its queue.
    @discardableResult
    public func nearest(
        to point: Coordinate, count: Int, maxDistance: Double? = nil, model: DistanceModel = .wgs84,
        into results: inout [Neighbor]
    ) -> QueryStats {
        var scratch = NearestScratch()
        return nearest(to: point, count: count, maxDistance: maxDistance, model: model, into: &results, scratch: &scratch)
    }

    /// Appends the `count` items nearest to `point` (see `nearest(to:count:maxDistance:model:)`) to
    /// `results`, nearest first, using `scratch` for the queue: repeated queries with the same scratch and a
    /// `results` array with capacity allocate nothing once the scratch has grown. Returns the query's counters.
    /// - Complexity: O((log n + count) log n) node visits on typical data.
    @discardableResult
    public func nearest(
        to point: Coordinate, count: Int, maxDistance: Double? = nil, model: DistanceModel = .wgs84,
        into results: inout [Neighbor], scratch: inout NearestScratch
    ) -> QueryStats {
        nearest(to: point, count: count, maxDistance: maxDistance, model: model, into: &results, scratch: &scratch, where: nil)
    }

    /// The `count` nearest items for which `isIncluded(item)` is true (see `nearest(to:count:maxDistance:model:)`),
    /// appended to `results` nearest first. Excluded items are skipped before any distance is computed, so a
    /// selective filter (one kind among many) costs the nodes around the point, not a repeated search.
    /// - Complexity: O((log n + m) log n) where m is the number of items examined, about count / selectivity.
    @discardableResult
    public func nearest(
        to point: Coordinate, count: Int, maxDistance: Double? = nil, model: DistanceModel = .wgs84,
        into results: inout [Neighbor], scratch: inout NearestScratch, where isIncluded: ((Int) -> Bool)?
    ) -> QueryStats {
        var stats = QueryStats()
        let limit = maxDistance ?? .infinity
        guard count > 0, limit >= 0, !ids.isEmpty else { return stats }
        let bounds = DistanceBounds(model)
        let latitude = point.latitude, longitude = point.longitude
        let cosLatitude = cos(latitude * Spherical.radiansPerDegree)
        scratch.queue.removeAll()
        scratch.frames.removeAll(keepingCapacity: true)
        var queue = NearestQueue()
        var frames = ContiguousArray<Frame>()
        swap(&queue, &scratch.queue)
        swap(&frames, &scratch.frames)
        defer {
            swap(&queue, &scratch.queue)
            swap(&frames, &scratch.frames)
        }
        frames.append(Frame.root(count: ids.count))
        queue.push(QueueEntry(key: 0, kind: .node, payload: 0))
        let start = results.count

        ids.withUnsafeBufferPointer { idBuffer in
            coordinates.withUnsafeBufferPointer { coordinateBuffer in
                /// A lower bound on hav σ from a latitude gap and a longitude gap in degrees, without trigonometry:
                /// hav σ = sin²(Δφ/2) + cos φ₁ cos φ₂ sin²(Δλ/2), with sin x ≥ x − x³/6 (0 ≤ x ≤ π/2) and cos φ₂ no
                /// less than `cosFloor`. Queue keys only order the search: every reported distance is exact.
                @inline(__always)
                func haversineFloor(latitudeGapDegrees: Double, longitudeGapDegrees: Double, cosFloor: Double) -> Double {
                    let halfDLat = latitudeGapDegrees * (Spherical.radiansPerDegree / 2)
                    let halfDLon = longitudeGapDegrees * (Spherical.radiansPerDegree / 2)
                    let a = halfDLat - halfDLat * halfDLat * halfDLat / 6
                    let b = halfDLon - halfDLon * halfDLon * halfDLon / 6
                    return a * a + cosLatitude * cosFloor * b * b
                }
                /// The smallest cos φ over a frame's latitudes, slightly lowered against rounding.
                @inline(__always)
                func cosLatitudeFloor(_ frame: Frame) -> Double {
                    let extreme = max(abs(frame.minLatitude), abs(frame.maxLatitude))
                    return max(0, cos(extreme * Spherical.radiansPerDegree) * (1 - 1e-12) - 1e-15)
                }
                @inline(__always)
                func pushItem(at position: Int, cosFloor: Double) {
                    if let isIncluded, !isIncluded(Int(idBuffer[position])) { return }
                    stats.candidates += 1
                    let h = haversineFloor(
                        latitudeGapDegrees: abs(coordinateBuffer[2 * position + Axis.latitude] - latitude),
                        longitudeGapDegrees: Spherical.angularGapDegrees(coordinateBuffer[2 * position + Axis.longitude], longitude),
                        cosFloor: cosFloor)
                    let key = bounds.lowerBoundMetersWithoutArcsine(haversine: h)
                    if key <= limit { queue.push(QueueEntry(key: key, kind: .boundedItem, payload: position)) }
                }
                /// Queues a node keyed by the exact spherical minimum over its box (a trigonometric bound: the cheap
                /// floor used for items is too loose for wide boxes near the poles and made tail latencies 10x worse).
                func pushNode(_ frame: Frame) {
                    let h = Spherical.minimumHaversine(
                        latitude: latitude, longitude: longitude, cosLatitude: cosLatitude,
                        minLongitude: frame.minLongitude, minLatitude: frame.minLatitude,
                        maxLongitude: frame.maxLongitude, maxLatitude: frame.maxLatitude)
                    let key = bounds.lowerBoundMeters(haversine: h)
                    if key <= limit {
                        queue.push(QueueEntry(key: key, kind: .node, payload: frames.count))
                        frames.append(frame)
                    }
                }

                while let entry = queue.popMin() {
                    // Keys are lower bounds of exact distances, so nothing left can be within the limit.
                    if entry.key > limit { break }
                    switch entry.kind {
                    case .node:
                        let node = frames[entry.payload]
                        stats.nodesVisited += 1
                        if node.hi - node.lo <= bucketSize {
                            let floor = cosLatitudeFloor(node)
                            for p in node.lo..<node.hi { pushItem(at: p, cosFloor: floor) }
                            continue
                        }
                        let middle = (node.lo + node.hi) >> 1
                        pushItem(at: middle, cosFloor: cosLatitudeFloor(node))
                        var low = node, high = node
                        low.hi = middle
                        high.lo = middle + 1
                        low.axis = 1 - node.axis
                        high.axis = 1 - node.axis
                        if node.axis == Axis.longitude {
                            low.maxLongitude = coordinateBuffer[2 * middle + Axis.longitude]
                            high.minLongitude = low.maxLongitude
                        } else {
                            low.maxLatitude = coordinateBuffer[2 * middle + Axis.latitude]
                            high.minLatitude = low.maxLatitude
                        }
                        if low.lo < low.hi { pushNode(low) }
                        if high.lo < high.hi { pushNode(high) }
                    case .boundedItem:
                        let p = entry.payload
                        stats.exactChecks += 1
                        let distance = measure(model, latitude, longitude,
                                               coordinateBuffer[2 * p + Axis.latitude], coordinateBuffer[2 * p + Axis.longitude])
                        if distance <= limit {
                            queue.push(QueueEntry(key: distance, kind: .exactItem, payload: Int(idBuffer[p])))
                        }
                    case .exactItem:
                        results.append(Neighbor(item: entry.payload, distanceMeters: entry.key))
                        if results.count - start >= count { return }
                    }
                }
            }
        }
        stats.results = results.count - start
        return stats
    }
}

/// Reusable working memory for nearest queries (the priority queue and the pending nodes).
///
/// Pass the same scratch to repeated `nearest(to:count:maxDistance:model:into:scratch:)` calls on one thread
/// to avoid allocating per query; its contents between calls mean nothing.
public struct NearestScratch {
    var queue = NearestQueue()
    var frames = ContiguousArray<PointIndex.Frame>()

    /// Empty scratch; it grows to what the largest query needs and keeps that capacity.
    /// - Complexity: O(1).
    public init() {}
}

/// An entry of the nearest-neighbour queue.
struct QueueEntry {
    /// What the entry holds; at equal keys, nodes and bounded items come before exact items, so an exact item
    /// is reported only when nothing left can tie with it and precede it.
    enum Kind: UInt8 {
        /// A tree node; payload = index into the query's frame list; key = lower bound.
        case node = 0
        /// An item whose exact distance is not yet known; payload = tree position; key = lower bound.
        case boundedItem = 1
        /// An item with its exact distance; payload = item index; key = distance.
        case exactItem = 2
    }

    var key: Double
    var kind: Kind
    var payload: Int

    /// Queue order: key, then kind, then payload (the item index for exact items: the documented tie-break).
    @inline(__always)
    func precedes(_ other: QueueEntry) -> Bool {
        if key != other.key { return key < other.key }
        if kind != other.kind { return kind.rawValue < other.kind.rawValue }
        return payload < other.payload
    }
}

/// A binary min-heap of queue entries in one flat array.
struct NearestQueue {
    private var storage = ContiguousArray<QueueEntry>()

    init() {}

    /// Empties the queue, keeping its capacity.
    mutating func removeAll() { storage.removeAll(keepingCapacity: true) }

    mutating func push(_ entry: QueueEntry) {
        storage.append(entry)
        var child = storage.count - 1
        storage.withUnsafeMutableBufferPointer { heap in
            while child > 0 {
                let parent = (child - 1) >> 1
                guard heap[child].precedes(heap[parent]) else { break }
                heap.swapAt(child, parent)
                child = parent
            }
        }
    }

    mutating func popMin() -> QueueEntry? {
        guard let last = storage.popLast() else { return nil }
        if storage.isEmpty { return last }
        let top = storage[0]
        storage.withUnsafeMutableBufferPointer { heap in
            heap[0] = last
            var parent = 0
            let n = heap.count
            while true {
                let left = 2 * parent + 1
                if left >= n { break }
                let right = left + 1
                let child = right < n && heap[right].precedes(heap[left]) ? right : left
                guard heap[child].precedes(heap[parent]) else { break }
                heap.swapAt(child, parent)
                parent = child
            }
        }
        return top
    }
}
