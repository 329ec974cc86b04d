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
        let start = results.count
        ids.withUnsafeBufferPointer { idBuffer in
            coordinates.withUnsafeBufferPointer { coordinateBuffer in
                var search = NearestSearch(
                    ids: idBuffer, coordinates: coordinateBuffer, bucketSize: bucketSize, point: point, count: count,
                    limit: limit, bounds: DistanceBounds(model), model: model, isIncluded: isIncluded, scratch: &scratch)
                search.run(into: &results)
                stats = search.stats
                search.returnScratch(to: &scratch)
            }
        }
        stats.results = results.count - start
        return stats
    }
}

/// One best-first nearest search: its queue, pending nodes and threshold as stored properties, so that the
/// hot loop's state is a plain struct (no captured variables, no dynamic exclusivity checks).
struct NearestSearch {
    typealias Axis = PointIndex.Axis
    typealias Frame = PointIndex.Frame

    let ids: UnsafeBufferPointer<UInt32>
    let coordinates: UnsafeBufferPointer<Double>
    let bucketSize: Int
    let latitude: Double
    let longitude: Double
    let cosLatitude: Double
    let count: Int
    let limit: Double
    let bounds: DistanceBounds
    /// Exact distances from the query point (its own trigonometry done once).
    let distances: DistanceFromPoint
    let isIncluded: ((Int) -> Bool)?
    var queue: NearestQueue
    var frames: ContiguousArray<Frame>
    /// The `count` smallest upper bounds on the distance of the items queued so far (one per item), as a
    /// max-heap: once full, its top is a distance within which `count` distinct items surely lie, so nothing
    /// whose lower bound exceeds it can be among the results.
    var upperBounds: ContiguousArray<Double>
    /// The positions of the leaf `seedThreshold` counted towards `upperBounds` (empty when none was): when that
    /// leaf is expanded its items are queued but not counted again (the threshold needs `count` distinct items).
    var seeded = 0..<0
    var stats = QueryStats()

    init(ids: UnsafeBufferPointer<UInt32>, coordinates: UnsafeBufferPointer<Double>, bucketSize: Int, point: Coordinate,
         count: Int, limit: Double, bounds: DistanceBounds, model: DistanceModel, isIncluded: ((Int) -> Bool)?,
         scratch: inout NearestScratch) {
        self.ids = ids
        self.coordinates = coordinates
        self.bucketSize = bucketSize
        latitude = point.latitude
        longitude = point.longitude
        cosLatitude = cos(point.latitude * Spherical.radiansPerDegree)
        self.count = count
        self.limit = limit
        self.bounds = bounds
        distances = DistanceFromPoint(model, latitude: point.latitude, longitude: point.longitude)
        self.isIncluded = isIncluded
        queue = NearestQueue()
        frames = []
        upperBounds = []
        swap(&queue, &scratch.queue)
        swap(&frames, &scratch.frames)
        swap(&upperBounds, &scratch.upperBounds)
        queue.removeAll()
        frames.removeAll(keepingCapacity: true)
        upperBounds.removeAll(keepingCapacity: true)
    }

    /// Hands the grown buffers back for the next query.
    mutating func returnScratch(to scratch: inout NearestScratch) {
        swap(&queue, &scratch.queue)
        swap(&frames, &scratch.frames)
        swap(&upperBounds, &scratch.upperBounds)
    }

    /// The largest key that can still lead to a result: the limit, or the `count`-th smallest upper bound
    /// seen so far when that is smaller.
    @inline(__always)
    var threshold: Double {
        upperBounds.count == count ? Swift.min(limit, upperBounds[0]) : limit
    }

    /// Appends up to `count` nearest items to `results`, nearest first.
    mutating func run(into results: inout [Neighbor]) {
        let start = results.count
        seedThreshold()
        frames.append(Frame.root(count: ids.count))
        queue.push(QueueEntry(key: 0, kind: .node, payload: 0))
        while let entry = queue.popMin() {
            // Keys are lower bounds of exact distances, so nothing left can be a result.
            if entry.key > threshold { break }
            switch entry.kind {
            case .node:
                expand(frames[entry.payload])
            case .boundedItem:
                let p = entry.payload
                stats.exactChecks += 1
                let distance = distances.meters(toLatitude: coordinates[2 * p + Axis.latitude],
                                                longitude: coordinates[2 * p + Axis.longitude])
                if distance <= threshold {
                    queue.push(QueueEntry(key: distance, kind: .exactItem, payload: Int(ids[p])))
                }
            case .exactItem:
                results.append(Neighbor(item: entry.payload, distanceMeters: entry.key))
                if results.count - start >= count { return }
            }
        }
    }

    /// Walks from the root down to the leaf whose box holds the query point (split comparisons only: no bound,
    /// no queue) and counts its items' upper bounds towards the threshold. The best-first walk then prunes from its
    /// first node on, where before the threshold formed only once a leaf was reached and every node on the way
    /// was queued with a trigonometric key (nearest-1 spent most of its instructions there).
    @inline(__always)
    mutating func seedThreshold() {
        guard count <= ids.count else { return }
        var node = Frame.root(count: ids.count)
        while node.hi - node.lo > bucketSize {
            let split = coordinates[2 * node.middle + node.axis]
            let (low, high) = node.halves(split: split)
            let next = (node.axis == Axis.longitude ? longitude : latitude) < split ? low : high
            // An empty half holds no leaf: seed nothing (the threshold forms as before).
            guard next.lo < next.hi else { return }
            node = next
        }
        let cosRange = cosLatitudeRange(node)
        for p in node.lo..<node.hi {
            if let isIncluded, !isIncluded(Int(ids[p])) { continue }
            let h = haversineRange(
                latitudeGapDegrees: abs(coordinates[2 * p + Axis.latitude] - latitude),
                longitudeGapDegrees: Spherical.angularGapDegrees(coordinates[2 * p + Axis.longitude], longitude),
                cosRange: cosRange)
            remember(bounds.upperBoundMetersWithoutArcsine(haversine: h.ceiling))
        }
        seeded = node.lo..<node.hi
    }

    /// Queues a node's items (a leaf) or its middle item and its two halves.
    @inline(__always)
    mutating func expand(_ node: Frame) {
        stats.nodesVisited += 1
        let cosRange = cosLatitudeRange(node)
        if node.hi - node.lo <= bucketSize {
            for p in node.lo..<node.hi { pushItem(at: p, cosRange: cosRange) }
            return
        }
        pushItem(at: node.middle, cosRange: cosRange)
        // Coordinates are stored per position at offsets `Axis.longitude` and `Axis.latitude`: the split value
        // is the middle item's coordinate on the node's axis.
        let (low, high) = node.halves(split: coordinates[2 * node.middle + node.axis])
        if low.lo < low.hi { pushNode(low) }
        if high.lo < high.hi { pushNode(high) }
    }

    /// Adds an item's upper bound to the `count` smallest seen (none are kept when the index holds fewer than
    /// `count` items: the threshold could never form).
    @inline(__always)
    mutating func remember(_ distance: Double) {
        guard count <= ids.count else { return }
        if upperBounds.count < count {
            upperBounds.append(distance)
            upperBounds.withUnsafeMutableBufferPointer { heap in
                var child = heap.count - 1
                while child > 0 {
                    let parent = (child - 1) >> 1
                    guard heap[parent] < heap[child] else { break }
                    heap.swapAt(child, parent)
                    child = parent
                }
            }
        } else if distance < upperBounds[0] {
            upperBounds.withUnsafeMutableBufferPointer { heap in
                heap[0] = distance
                var parent = 0
                while true {
                    let left = 2 * parent + 1
                    if left >= heap.count { break }
                    let right = left + 1
                    let child = right < heap.count && heap[left] < heap[right] ? right : left
                    guard heap[parent] < heap[child] else { break }
                    heap.swapAt(child, parent)
                    parent = child
                }
            }
        }
    }

    /// Bounds on hav σ from a latitude gap and a longitude gap in degrees, without trigonometry:
    /// hav σ = sin²(Δφ/2) + cos φ₁ cos φ₂ sin²(Δλ/2), with x − x³/6 ≤ sin x ≤ x (0 ≤ x ≤ π/2) and cos φ₂
    /// within `cosRange`. Queue keys only order and prune the search: every reported distance is exact.
    @inline(__always)
    func haversineRange(latitudeGapDegrees: Double, longitudeGapDegrees: Double,
                        cosRange: (floor: Double, ceiling: Double)) -> (floor: Double, ceiling: Double) {
        let halfDLat = latitudeGapDegrees * (Spherical.radiansPerDegree / 2)
        let halfDLon = longitudeGapDegrees * (Spherical.radiansPerDegree / 2)
        let a = halfDLat - halfDLat * halfDLat * halfDLat / 6
        let b = halfDLon - halfDLon * halfDLon * halfDLon / 6
        return (a * a + cosLatitude * cosRange.floor * b * b,
                halfDLat * halfDLat + cosLatitude * cosRange.ceiling * halfDLon * halfDLon)
    }

    /// The smallest and largest cos φ over a frame's latitudes, from `NearestCosines` (no trigonometry).
    @inline(__always)
    func cosLatitudeRange(_ frame: Frame) -> (floor: Double, ceiling: Double) {
        let extreme = Swift.max(abs(frame.minLatitude), abs(frame.maxLatitude))
        let floor = NearestCosines.floor(atMost: extreme)
        if frame.minLatitude <= 0, frame.maxLatitude >= 0 { return (floor, 1) }
        return (floor, NearestCosines.ceiling(atLeast: Swift.min(abs(frame.minLatitude), abs(frame.maxLatitude))))
    }

    /// Queues an item keyed by a lower bound on its distance, and counts its upper bound towards the threshold.
    @inline(__always)
    mutating func pushItem(at position: Int, cosRange: (floor: Double, ceiling: Double)) {
        if let isIncluded, !isIncluded(Int(ids[position])) { return }
        stats.candidates += 1
        let h = haversineRange(
            latitudeGapDegrees: abs(coordinates[2 * position + Axis.latitude] - latitude),
            longitudeGapDegrees: Spherical.angularGapDegrees(coordinates[2 * position + Axis.longitude], longitude),
            cosRange: cosRange)
        let key = bounds.lowerBoundMetersWithoutArcsine(haversine: h.floor)
        guard key <= threshold else { return }
        queue.push(QueueEntry(key: key, kind: .boundedItem, payload: position))
        if !seeded.contains(position) { remember(bounds.upperBoundMetersWithoutArcsine(haversine: h.ceiling)) }
    }

    /// Queues a node keyed by a lower bound on the distance of anything in its box, unless the key already exceeds
    /// the threshold. The bound is first the trig-free one of items (the box's latitude and longitude gaps, its
    /// smallest cos φ): it prunes most nodes, and deep nodes, narrow in latitude, are keyed by it. A node off to the
    /// side in longitude and wide in latitude (cos φ varying by more than 5 % across it) is keyed by the exact
    /// spherical minimum over its box instead: the cheap floor is far too loose for wide boxes near the poles and
    /// made tail latencies 10x worse.
    @inline(__always)
    mutating func pushNode(_ frame: Frame) {
        let latitudeGap = latitude < frame.minLatitude ? frame.minLatitude - latitude
            : (latitude > frame.maxLatitude ? latitude - frame.maxLatitude : 0)
        // The short way round to the nearer edge meridian; 0 inside (180 and -180 are one meridian: their gap is 0).
        let insideLongitudes = longitude >= frame.minLongitude && longitude <= frame.maxLongitude
        let longitudeGap = insideLongitudes ? 0 : Swift.min(Spherical.angularGapDegrees(longitude, frame.minLongitude),
                                                            Spherical.angularGapDegrees(longitude, frame.maxLongitude))
        let cosRange = cosLatitudeRange(frame)
        let floor = haversineRange(latitudeGapDegrees: latitudeGap, longitudeGapDegrees: longitudeGap, cosRange: cosRange).floor
        var key = bounds.lowerBoundMetersWithoutArcsine(haversine: floor)
        guard key <= threshold else { return }
        if longitudeGap > 0, cosRange.floor < 0.95 * cosRange.ceiling {
            let h = Spherical.minimumHaversine(
                latitude: latitude, longitude: longitude, cosLatitude: cosLatitude,
                minLongitude: frame.minLongitude, minLatitude: frame.minLatitude,
                maxLongitude: frame.maxLongitude, maxLatitude: frame.maxLatitude)
            key = Swift.max(key, bounds.lowerBoundMeters(haversine: h))
            guard key <= threshold else { return }
        }
        queue.push(QueueEntry(key: key, kind: .node, payload: frames.count))
        frames.append(frame)
    }
}

/// Reusable working memory for nearest queries (the priority queue and the pending nodes).
///
/// Pass the same scratch to repeated `nearest(to:count:maxDistance:model:into:scratch:)` calls on one thread
/// to avoid allocating per query; its contents between calls mean nothing.
public struct NearestScratch {
    var queue = NearestQueue()
    var frames = ContiguousArray<PointIndex.Frame>()
    var upperBounds = ContiguousArray<Double>()

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
