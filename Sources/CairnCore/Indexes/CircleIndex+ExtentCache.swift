import Atomics
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension CircleIndex {
    /// A `CircleIndex`'s tree of its circles' extents (`ShapeExtentIndex`, items are circle numbers), built once a
    /// process has asked `queriesBeforeBuild` plain containment queries and shared by every copy of the index and
    /// every thread after it.
    ///
    /// Why a second tree: the centres' k-d tree can only prune by the largest radius of a node's circles, so a
    /// point query opens every node near it; a packed tree over each circle's own box (the latitude and longitude
    /// reach of its outer angle) opens only the boxes that hold the point (GEOS's STRtree peer does the same).
    /// Why not at once: building it costs O(n log n) (tens of milliseconds for the 234,908 places), which a
    /// one-off query on a mapped snapshot must not pay; a process that asks many queries pays it once. Not in the
    /// snapshot, so the format stays as it is. Two threads may build it at once; one result is kept.
    final class ExtentCache: Sendable {
        /// Plain containment queries answered by the centres' tree before the extent tree is built.
        static let queriesBeforeBuild = 64

        /// The built tree (a class, as `ManagedAtomicLazyReference` holds objects).
        final class Tree: Sendable {
            let extents: ShapeExtentIndex
            init(_ extents: ShapeExtentIndex) { self.extents = extents }
        }

        private let built = ManagedAtomicLazyReference<Tree>()
        private let queries = ManagedAtomic<Int>(0)

        /// An empty cache.
        /// - Complexity: O(1).
        init() {}

        /// Whether the tree has been built (a test's question; counts no query).
        /// - Complexity: O(1).
        var isBuilt: Bool { built.load() != nil }

        /// The extent tree of `index` once `queriesBeforeBuild` queries asked for it (building it at that call),
        /// nil before.
        /// - Complexity: O(1), except the call that builds: O(n log n).
        func extents(of index: CircleIndex) -> ShapeExtentIndex? {
            if let tree = built.load() { return tree.extents }
            guard queries.loadThenWrappingIncrement(ordering: .relaxed) >= ExtentCache.queriesBeforeBuild else { return nil }
            return built.storeIfNilThenLoad(Tree(index.circleExtents())).extents
        }
    }

    /// Every circle's box: the latitudes and longitudes within its outer angle under either model (the larger
    /// one, `.wgs84`'s smaller radius of curvature), as `ContainmentWalk.canReach` bounds them; two boxes for a
    /// circle across the antimeridian, every longitude for one that reaches a pole.
    /// - Complexity: O(n log n).
    func circleExtents() -> ShapeExtentIndex {
        var entries: [ShapeExtentIndex.Entry] = []
        entries.reserveCapacity(count + count / 64)
        let wgs84 = DistanceBounds(.wgs84), sphere = DistanceBounds(.sphere)
        circles.withUnsafeBufferPointer { circles in
            for item in 0..<circles.count / 3 {
                let latitude = circles[3 * item], longitude = circles[3 * item + 1], radius = circles[3 * item + 2]
                let angle = Swift.max(wgs84.outerAngle(radiusMeters: radius), sphere.outerAngle(radiusMeters: radius))
                let reach = Spherical.latitudeReachDegrees(angle: angle)
                let south = Swift.max(-90, latitude - reach), north = Swift.min(90, latitude + reach)
                guard let width = Spherical.longitudeReachDegrees(angle: angle, latitude: latitude,
                                                                  cosLatitude: cos(latitude * Spherical.radiansPerDegree)) else {
                    entries.append(.init(item: item, west: -180, south: south, east: 180, north: north))
                    continue
                }
                let west = longitude - width, east = longitude + width
                entries.append(.init(item: item, west: Swift.max(-180, west), south: south, east: Swift.min(180, east), north: north))
                // The part beyond the antimeridian, on the other side (180 and -180 are one meridian).
                if west < -180 { entries.append(.init(item: item, west: west + 360, south: south, east: 180, north: north)) }
                if east > 180 { entries.append(.init(item: item, west: -180, south: south, east: east - 360, north: north)) }
            }
        }
        return ShapeExtentIndex(entries)
    }

    /// `containing(_:model:into:)` through the extent tree: the boxes holding the point (on ±180, both meridians),
    /// each candidate decided as the centres' walk decides it (`ContainmentWalk.test`), ascending, each once.
    /// - Complexity: O(log n + k log k) for k boxes holding the point.
    func containing(_ point: Coordinate, model: DistanceModel, extents: ShapeExtentIndex, into results: inout [Int]) -> QueryStats {
        var stats = QueryStats()
        guard !centers.isEmpty else { return stats }
        let start = results.count
        var exactChecks = 0
        extents.withLeaves(meeting: BoundingBox(unchecked: point.longitude, point.latitude, point.longitude, point.latitude),
                           stats: &stats) { keys in
            guard !keys.isEmpty else { return }
            // Candidates ascending, each once (on ±180 a circle can be found on both meridians).
            var keys = keys
            if keys.count > 1 { keys.sort() }
            centers.ids.withUnsafeBufferPointer { ids in
                centers.coordinates.withUnsafeBufferPointer { coordinates in
                    circles.withUnsafeBufferPointer { circles in
                        nodeMaxRadiusMeters.withUnsafeBufferPointer { radii in
                            var walk = ContainmentWalk(
                                point: point, model: model, accuracyMeters: 0, largestRadiusMeters: radii[0],
                                bucketSize: centers.bucketSize, ids: ids, coordinates: coordinates, circles: circles, radii: radii)
                            swap(&walk.results, &results)
                            var previous = -1
                            for key in keys where Int(key >> 32) != previous {
                                let item = Int(key >> 32)
                                previous = item
                                walk.test(item: item, centerLatitude: circles[3 * item], centerLongitude: circles[3 * item + 1])
                            }
                            swap(&walk.results, &results)
                            exactChecks = walk.stats.exactChecks
                        }
                    }
                }
            }
        }
        stats.exactChecks += exactChecks
        stats.results = results.count - start
        return stats
    }
}
