#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A static index of circles answering "which circles contain this point?" (the check-in question), exactly.
///
/// One `PointIndex` over the centres, whose implicit k-d tree nodes each carry the largest radius among their
/// circles (an augmented tree, as in interval trees: Cormen et al., "Introduction to Algorithms", §14.3). A
/// query walks down only into nodes whose centres can lie within that largest radius of the point, so a few
/// large circles widen the search only where they are, and one walk serves every radius. Candidates are decided
/// against their own radius: a latitude and longitude bracket first, spherical bounds next (`DistanceBounds`),
/// the model's exact distance for the undecided.
public struct CircleIndex: Sendable {
    /// The circles' centres; item `i` is circle `i`.
    let centers: PointIndex
    /// Every circle's centre and radius by input index: latitude, longitude, radius.
    let circles: IndexBuffer<Double>
    /// The largest radius (metres) of the circles in each node of `centers`' tree, in heap order: the root is
    /// 0 and node `i`'s halves are `2i + 1` (lower) and `2i + 2` (upper). Derived from `circles`.
    let nodeMaxRadiusMeters: IndexBuffer<Double>
    /// The tree of the circles' extents that plain containment queries use once a process has asked enough of
    /// them (see `ExtentCache`); shared by every copy of the index.
    let extentCache = ExtentCache()

    /// Builds the index; item `i` is the `i`-th circle of the sequence.
    /// - Complexity: O(n log n) time; about 45 bytes per circle.
    public init(_ circles: some Sequence<Circle>, bucketSize: Int = 32) {
        var flat = ContiguousArray<Double>()
        flat.reserveCapacity(3 * circles.underestimatedCount)
        var centers: [Coordinate] = []
        centers.reserveCapacity(circles.underestimatedCount)
        for circle in circles {
            precondition(centers.count < Int(UInt32.max), "CircleIndex holds at most \(UInt32.max) circles")
            flat.append(circle.center.latitude)
            flat.append(circle.center.longitude)
            flat.append(circle.radiusMeters)
            centers.append(circle.center)
        }
        self.init(centers: PointIndex(centers, bucketSize: bucketSize), circles: flat)
    }

    /// The index over `circles` (latitude, longitude, radius per item) with `centers` already built over them.
    /// - Complexity: O(n).
    init(centers: PointIndex, circles: ContiguousArray<Double>) {
        self.centers = centers
        self.circles = IndexBuffer(circles)
        self.nodeMaxRadiusMeters = CircleIndex.nodeMaxRadii(of: centers, circles: self.circles)
    }

    /// The index over buffers read in place (a mapped snapshot's), unchecked: the caller has checked them.
    /// - Complexity: O(1).
    init(centers: PointIndex, circles: IndexBuffer<Double>, nodeMaxRadiusMeters: IndexBuffer<Double>) {
        self.centers = centers
        self.circles = circles
        self.nodeMaxRadiusMeters = nodeMaxRadiusMeters
    }

    /// The number of nodes of the centres' tree over `count` points with `bucketSize`, in heap numbering: the
    /// length of `nodeMaxRadiusMeters`.
    /// - Complexity: O(n / bucketSize).
    static func nodeCount(points count: Int, bucketSize: Int) -> Int {
        guard count > 0 else { return 0 }
        /// The largest heap number of a node under `[lo, hi)` numbered `node`.
        func lastNode(_ lo: Int, _ hi: Int, _ node: Int) -> Int {
            if hi - lo <= bucketSize { return node }
            let middle = (lo + hi) >> 1
            var last = node
            if lo < middle { last = max(last, lastNode(lo, middle, 2 * node + 1)) }
            if middle + 1 < hi { last = max(last, lastNode(middle + 1, hi, 2 * node + 2)) }
            return last
        }
        return lastNode(0, count, 0) + 1
    }

    /// The largest radius per node of the centres' tree, in heap order (see `nodeMaxRadiusMeters`).
    /// - Complexity: O(n).
    static func nodeMaxRadii(of centers: PointIndex, circles: IndexBuffer<Double>) -> IndexBuffer<Double> {
        guard !centers.isEmpty else { return IndexBuffer([]) }
        let bucket = centers.bucketSize
        // Zeros first: heap numbering leaves gaps (nodes that do not exist) that the walk never writes.
        return IndexBuffer(count: nodeCount(points: centers.count, bucketSize: bucket)) { radii in
            radii.initialize(repeating: 0)
            centers.ids.withUnsafeBufferPointer { ids in
                circles.withUnsafeBufferPointer { circles in
                    func fill(_ lo: Int, _ hi: Int, _ node: Int) -> Double {
                        var largest = 0.0
                        if hi - lo <= bucket {
                            for p in lo..<hi { largest = max(largest, circles[3 * Int(ids[p]) + 2]) }
                        } else {
                            let middle = (lo + hi) >> 1
                            largest = circles[3 * Int(ids[middle]) + 2]
                            if lo < middle { largest = max(largest, fill(lo, middle, 2 * node + 1)) }
                            if middle + 1 < hi { largest = max(largest, fill(middle + 1, hi, 2 * node + 2)) }
                        }
                        radii[node] = largest
                        return largest
                    }
                    _ = fill(0, ids.count, 0)
                }
            }
        }
    }

    /// The number of circles indexed.
    /// - Complexity: O(1).
    public var count: Int { circles.count / 3 }

    /// Bytes held by the index's buffers (capacity): about 45 per circle; 0 when read in place from a mapped snapshot.
    /// - Complexity: O(1).
    public var memoryBytes: Int {
        centers.memoryBytes + circles.ownedBytes + nodeMaxRadiusMeters.ownedBytes
    }

    /// The items whose circle contains `point` (edge inclusive) under `model`, in ascending item order.
    /// Contains means `distanceMeters(from: center, to: point, model: model) <= radiusMeters`, exactly.
    /// - Complexity: O(log n + k) node visits for k candidate circles on typical data.
    public func containing(_ point: Coordinate, model: DistanceModel = .wgs84) -> [Int] {
        var results: [Int] = []
        containing(point, model: model, into: &results)
        return results
    }

    /// Appends the items whose circle contains `point` to `results`, the appended part in ascending item
    /// order; returns the query's counters.
    /// - Complexity: O(log n + k) node visits for k candidate circles on typical data.
    ///
    /// From the `ExtentCache.queriesBeforeBuild`-th query on, a tree of the circles' extents answers instead of the
    /// centres' tree (a point-in-box search prunes far better than a centre tree widened by a largest radius); the
    /// answers are the same, the counters `--explain` prints are the extent tree's.
    @discardableResult
    public func containing(_ point: Coordinate, model: DistanceModel = .wgs84, into results: inout [Int]) -> QueryStats {
        if let extents = extentCache.extents(of: self) {
            return containing(point, model: model, extents: extents, into: &results)
        }
        return containing(point, model: model, accuracyMeters: 0, into: &results)
    }

    /// Appends the items whose circle contains `point` with the benefit of `accuracyMeters` of GPS doubt
    /// (`distance − accuracyMeters <= radiusMeters`, exactly in that form; 0 is plain containment), the
    /// appended part in ascending item order; returns the query's counters.
    /// - Complexity: O(log n + k) node visits for k candidate circles on typical data.
    @discardableResult
    package func containing(_ point: Coordinate, model: DistanceModel, accuracyMeters: Double, into results: inout [Int]) -> QueryStats {
        var stats = QueryStats()
        guard !centers.isEmpty else { return stats }
        let start = results.count
        centers.ids.withUnsafeBufferPointer { ids in
            centers.coordinates.withUnsafeBufferPointer { coordinates in
                circles.withUnsafeBufferPointer { circles in
                    nodeMaxRadiusMeters.withUnsafeBufferPointer { radii in
                        var walk = ContainmentWalk(
                            point: point, model: model, accuracyMeters: accuracyMeters, largestRadiusMeters: radii[0],
                            bucketSize: centers.bucketSize, ids: ids, coordinates: coordinates, circles: circles, radii: radii)
                        swap(&walk.results, &results)
                        walk.visit(PointIndex.Frame.root(count: ids.count), node: 0)
                        swap(&walk.results, &results)
                        stats = walk.stats
                    }
                }
            }
        }
        if results.count - start > 1 { results[start...].sort() }
        stats.results = results.count - start
        return stats
    }
}

/// One containment query's walk down the centres' tree.
///
/// A circle of radius r centred at c contains the point q only if σ(c, q) ≤ σ(r), the outer angle of r
/// (`DistanceBounds.outerAngle`); then |Δφ| ≤ σ(r) and |Δλ| ≤ asin(sin σ(r) / cos φq). A node is entered only
/// when its box is within both reaches of q for the node's largest radius. The longitude reach is computed
/// once, for the largest radius of all, and scaled down linearly for smaller ones: f(σ) = asin(c sin σ) with
/// c = 1 / cos φq ≥ 1 is convex with f(0) = 0 (f″ = c sin σ (c² − 1) / (1 − c² sin² σ)^{3/2} ≥ 0), so
/// f(t σ) ≤ t f(σ) for 0 ≤ t ≤ 1: the scaled reach is never too short.
struct ContainmentWalk {
    let latitude: Double
    let longitude: Double
    let cosLatitude: Double
    let model: DistanceModel
    /// Metres of GPS doubt added to every radius (0: plain containment).
    let accuracyMeters: Double
    let bucketSize: Int
    let ids: UnsafeBufferPointer<UInt32>
    let coordinates: UnsafeBufferPointer<Double>
    let circles: UnsafeBufferPointer<Double>
    let radii: UnsafeBufferPointer<Double>
    /// Bounds valid for every circle that can contain the point (the band of the largest radius around it).
    let bounds: DistanceBounds
    /// Radians of outer angle per metre of radius, and the angle added for the margin: σ(r) = (r + m) · scale.
    let outerAnglePerMeter: Double
    let outerAngleOffset: Double
    /// Degrees of longitude reach per radian of outer angle (`Spherical.longitudeReachDegrees` of the largest
    /// radius, over its angle); infinite when that reach takes in every longitude (then longitudes do not prune).
    let longitudeDegreesPerRadian: Double
    var results: [Int] = []
    var stats = QueryStats()

    init(point: Coordinate, model: DistanceModel, accuracyMeters: Double, largestRadiusMeters: Double, bucketSize: Int,
         ids: UnsafeBufferPointer<UInt32>, coordinates: UnsafeBufferPointer<Double>,
         circles: UnsafeBufferPointer<Double>, radii: UnsafeBufferPointer<Double>) {
        latitude = point.latitude
        longitude = point.longitude
        cosLatitude = cos(point.latitude * Spherical.radiansPerDegree)
        self.model = model
        self.accuracyMeters = accuracyMeters
        self.bucketSize = bucketSize
        self.ids = ids
        self.coordinates = coordinates
        self.circles = circles
        self.radii = radii
        let global = DistanceBounds(model)
        outerAnglePerMeter = 1 / (global.lowRadiusMeters * (1 - DistanceBounds.relativeMargin))
        outerAngleOffset = DistanceBounds.absoluteMarginMeters * outerAnglePerMeter
        // Above 0 even for radius 0: the outer angle includes the distance margin.
        let largest = global.outerAngle(radiusMeters: largestRadiusMeters + accuracyMeters)
        let reach = Spherical.latitudeReachDegrees(angle: largest)
        bounds = DistanceBounds(model, south: point.latitude - reach, north: point.latitude + reach)
        longitudeDegreesPerRadian = Spherical.longitudeReachDegrees(angle: largest, latitude: point.latitude, cosLatitude: cosLatitude)
            .map { $0 / largest } ?? .infinity
    }

    /// Whether a circle of radius at most `radiusMeters` centred in the box can contain the point.
    @inline(__always)
    func canReach(radiusMeters: Double, south: Double, north: Double, west: Double, east: Double) -> Bool {
        let angle = (radiusMeters + accuracyMeters) * outerAnglePerMeter + outerAngleOffset
        let latitudeGap = latitude < south ? south - latitude : (latitude > north ? latitude - north : 0)
        guard latitudeGap <= Spherical.latitudeReachDegrees(angle: angle) else { return false }
        // Already widened for the largest radius; scaling it down keeps that margin in proportion.
        let longitudeReach = longitudeDegreesPerRadian * angle
        if longitudeReach >= 180 || (longitude >= west && longitude <= east) { return true }
        let gap = Swift.min(Spherical.angularGapDegrees(longitude, west), Spherical.angularGapDegrees(longitude, east))
        return gap <= longitudeReach
    }

    /// Walks the node numbered `node` (heap order) covering `frame`.
    mutating func visit(_ frame: PointIndex.Frame, node: Int) {
        stats.nodesVisited += 1
        guard canReach(radiusMeters: radii[node], south: frame.minLatitude, north: frame.maxLatitude,
                       west: frame.minLongitude, east: frame.maxLongitude) else { return }
        if frame.hi - frame.lo <= bucketSize {
            for p in frame.lo..<frame.hi { test(position: p) }
            return
        }
        test(position: frame.middle)
        let (low, high) = frame.halves(split: coordinates[2 * frame.middle + frame.axis])
        if low.lo < low.hi { visit(low, node: 2 * node + 1) }
        if high.lo < high.hi { visit(high, node: 2 * node + 2) }
    }

    /// Decides the circle at tree position `position` against its own radius.
    @inline(__always)
    mutating func test(position: Int) {
        test(item: Int(ids[position]), centerLatitude: coordinates[2 * position + PointIndex.Axis.latitude],
             centerLongitude: coordinates[2 * position + PointIndex.Axis.longitude])
    }

    /// Decides circle `item` (centred at the given coordinates) against its own radius.
    @inline(__always)
    mutating func test(item: Int, centerLatitude: Double, centerLongitude: Double) {
        let radius = circles[3 * item + 2]
        stats.candidates += 1
        guard canReach(radiusMeters: radius, south: centerLatitude, north: centerLatitude,
                       west: centerLongitude, east: centerLongitude) else { return }
        let h = Spherical.haversine(from: latitude, longitude, cosLatitude: cosLatitude, to: centerLatitude, centerLongitude)
        // The bounds decide with a millimetre to spare when there is doubt (far more than any rounding of the
        // sum); the rest is measured and compared in exactly the rule's form (`- 0` changes nothing).
        let reach = radius + accuracyMeters, spare = accuracyMeters == 0 ? 0 : 1e-3
        if bounds.lowerBoundMeters(haversine: h) > reach + spare { return }
        if bounds.upperBoundMeters(haversine: h) <= reach - spare {
            results.append(item)
            return
        }
        // Near the edge, the chord bound (micrometres wide for small circles) settles almost every case left.
        if model == .wgs84, h <= GeodesicChord.maximumHaversine {
            // The point's chord coordinates are computed here, not per query: few circles ever get this far.
            let (axisDistance, height) = GeodesicChord.meridianPlaneMeters(latitude: latitude, cosLatitude: cosLatitude)
            let meters = GeodesicChord.chordMeters(axisDistance, height, longitude, centerLatitude, centerLongitude,
                                                   cosLatitude: cos(centerLatitude * Spherical.radiansPerDegree))
            if GeodesicChord.lowerBoundMeters(chord: meters) > reach + spare { return }
            if GeodesicChord.upperBoundMeters(chord: meters) <= reach - spare {
                results.append(item)
                return
            }
        }
        stats.exactChecks += 1
        // From the circle's centre to the point: the direction `Circle.contains` measures.
        if measure(model, centerLatitude, centerLongitude, latitude, longitude) - accuracyMeters <= radius { results.append(item) }
    }
}
