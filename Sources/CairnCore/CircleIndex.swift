#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A static index of circles answering "which circles contain this point?" (the check-in question), exactly.
///
/// Circles are grouped into tiers by radius (radii in [2^(k-1), 2^k) metres share tier k) and each tier is a
/// `PointIndex` over its centres. A query searches each tier with that tier's largest radius, then decides each
/// candidate against its own radius: spherical bounds first (`DistanceBounds`), the model's exact distance
/// for the undecided. Tiers keep a few large circles from widening the search for all the small ones.
public struct CircleIndex: Sendable {
    /// One radius class.
    struct Tier: Sendable {
        /// Centres of the tier's circles; its items are positions in `items`.
        let centers: PointIndex
        /// The input index of each of the tier's circles.
        let items: ContiguousArray<UInt32>
        /// The largest radius in the tier, metres.
        let maxRadiusMeters: Double
    }

    let tiers: [Tier]
    /// Every circle's centre and radius by input index: latitude, longitude, radius.
    let circles: ContiguousArray<Double>

    /// Builds the index; item `i` is the `i`-th circle of the sequence.
    /// - Complexity: O(n log n) time; about 44 bytes per circle.
    public init(_ circles: some Sequence<Circle>, bucketSize: Int = 32) {
        var flat = ContiguousArray<Double>()
        flat.reserveCapacity(3 * circles.underestimatedCount)
        var groups: [Int: TierBuilder] = [:]
        var item = 0
        for circle in circles {
            precondition(item < Int(UInt32.max), "CircleIndex holds at most \(UInt32.max) circles")
            flat.append(circle.center.latitude)
            flat.append(circle.center.longitude)
            flat.append(circle.radiusMeters)
            groups[CircleIndex.tier(ofRadius: circle.radiusMeters), default: TierBuilder()]
                .add(circle, item: UInt32(truncatingIfNeeded: item))
            item += 1
        }
        self.circles = flat
        self.tiers = groups.sorted { $0.key < $1.key }.map { _, group in
            Tier(centers: PointIndex(group.centers, bucketSize: bucketSize), items: group.items, maxRadiusMeters: group.maxRadiusMeters)
        }
    }

    /// One tier's circles while building.
    private struct TierBuilder {
        var centers: [Coordinate] = []
        var items = ContiguousArray<UInt32>()
        var maxRadiusMeters = 0.0

        mutating func add(_ circle: Circle, item: UInt32) {
            centers.append(circle.center)
            items.append(item)
            maxRadiusMeters = max(maxRadiusMeters, circle.radiusMeters)
        }
    }

    /// Radii below 1 m share tier 0; otherwise tier k holds [2^(k-1), 2^k).
    static func tier(ofRadius radius: Double) -> Int {
        radius < 1 ? 0 : Int(radius.exponent) + 1
    }

    /// The number of circles indexed.
    /// - Complexity: O(1).
    public var count: Int { circles.count / 3 }

    /// The items whose circle contains `point` (edge inclusive) under `model`, in ascending item order.
    /// Contains means `distanceMeters(from: center, to: point, model: model) <= radiusMeters`, exactly.
    /// - Complexity: O(t (√n + k)) for t radius tiers and k candidates on typical data.
    public func containing(_ point: Coordinate, model: DistanceModel = .wgs84) -> [Int] {
        var results: [Int] = []
        containing(point, model: model, into: &results)
        return results
    }

    /// Appends the items whose circle contains `point` to `results`, the appended part in ascending item
    /// order; returns the query's counters.
    /// - Complexity: O(t (√n + k)) for t radius tiers and k candidates on typical data.
    @discardableResult
    public func containing(_ point: Coordinate, model: DistanceModel = .wgs84, into results: inout [Int]) -> QueryStats {
        var stats = QueryStats()
        let start = results.count
        var visitor = ContainingVisitor(point: point, model: model, bounds: DistanceBounds(model))
        swap(&visitor.results, &results)
        circles.withUnsafeBufferPointer { flat in
            for tier in tiers {
                let test = CircleTest(latitude: point.latitude, longitude: point.longitude,
                                      radiusMeters: tier.maxRadiusMeters, model: model)
                // Bounds from the radii of curvature of the latitudes this tier's circles can reach (see
                // `DistanceBounds`): a candidate is accepted only within the tier's outer angle of the point.
                let reach = DistanceBounds(model).outerAngle(radiusMeters: tier.maxRadiusMeters) / Spherical.radiansPerDegree * (1 + 1e-9) + 1e-9
                visitor.bounds = DistanceBounds(model, south: point.latitude - reach, north: point.latitude + reach)
                tier.items.withUnsafeBufferPointer { items in
                    visitor.items = items
                    visitor.circles = flat
                    visitor.test = test
                    tier.centers.traverse(south: test.south, north: test.north, longitudes: test.longitudes,
                                          visitor: &visitor, stats: &stats)
                    visitor.items = nil
                    visitor.circles = nil
                }
            }
        }
        swap(&visitor.results, &results)
        results[start...].sort()
        stats.results = results.count - start
        return stats
    }
}

/// Decides each candidate centre against its own circle's radius.
struct ContainingVisitor: PointVisitor {
    let point: Coordinate
    let model: DistanceModel
    var bounds: DistanceBounds
    var test: CircleTest?
    var items: UnsafeBufferPointer<UInt32>?
    var circles: UnsafeBufferPointer<Double>?
    var results: [Int] = []

    /// Each circle has its own radius: no node is taken whole.
    func containsWhole(_ node: PointIndex.Frame, south: Double, north: Double, west: Double, east: Double) -> Bool { false }

    @inline(__always)
    mutating func visit(item position: UInt32, longitude: Double, latitude: Double, stats: inout QueryStats) {
        guard let test, let items, let circles else { return }
        let item = Int(items[Int(position)])
        let radius = circles[3 * item + 2]
        let h = test.haversine(latitude, longitude)
        if bounds.lowerBoundMeters(haversine: h) > radius { return }
        if bounds.upperBoundMeters(haversine: h) <= radius {
            results.append(item)
            return
        }
        stats.exactChecks += 1
        // From the circle's centre to the point: the direction `Circle.contains` measures.
        if measure(model, latitude, longitude, point.latitude, point.longitude) <= radius { results.append(item) }
    }

    mutating func accept(item: UInt32) {}
}
