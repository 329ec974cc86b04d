import CairnCore

/// The exact queries every peer answers the same way: its index gives candidates from rectangles that
/// conservatively bound the query, and each candidate is re-checked against the input doubles with
/// CairnCore's `distanceMeters` (the same function, with the same argument order, Cairn's indexes use).
///
/// - box: the box's rectangles, candidates re-checked against the rectangle (doubles, edges inclusive);
/// - radius: rectangles bounding the circle (`BenchRect.covering(circleAround:)`), then the exact distance;
/// - nearest: circles of growing radius (doubling, from a guess based on the average density): while the
///   bounding rectangles hold fewer than `count` candidates nothing is measured; otherwise every candidate
///   gets its exact distance, and when `count` of them lie within the radius the nearest `count` are
///   final, since everything outside the rectangles is farther than the radius;
/// - containment: the point as a rectangle against the circles' bounding rectangles, then the exact
///   distance from each candidate circle's centre.
struct PeerQueries {
    /// The indexed points, kept for the exact re-check (16 bytes per point).
    let points: ContiguousArray<Coordinate>
    /// The indexed circles, kept for the exact re-check.
    var circles: ContiguousArray<BenchCircle> = []
    /// Reused candidate buffer.
    private var candidates: [Int] = []
    /// Reused buffer of measured candidates for nearest.
    private var measured: [Neighbor] = []
    /// The first radius nearest tries for one neighbour, metres.
    private let nearestStartMeters: Double

    /// Half the Earth's circumference, metres (a bit above the longest geodesic): no point is farther.
    static let maxDistanceMeters = 20_100_000.0

    /// Keeps a copy of `points` for re-checks (its own buffer, as Cairn's index has, so the build's memory
    /// counts it: converting the array would share the caller's storage).
    /// - Complexity: O(n).
    init(points: [Coordinate]) {
        var copy = ContiguousArray<Coordinate>()
        copy.reserveCapacity(points.count)
        copy.append(contentsOf: points)
        self.points = copy
        candidates.reserveCapacity(4096)
        measured.reserveCapacity(4096)
        // Radius of a disc holding one point at the average density over the Earth's 5.1e14 m², quartered.
        let density = Double(max(points.count, 1)) / 5.1e14
        nearestStartMeters = (1 / (Double.pi * density)).squareRoot() / 4
    }

    /// Items inside `box`.
    mutating func search(in box: BoundingBox, index: some RectCandidateIndex, into results: inout [Int]) {
        BenchRect.covering(box).forEach { rect in
            candidates.removeAll(keepingCapacity: true)
            index.collect(rect, into: &candidates)
            points.withUnsafeBufferPointer { points in
                for item in candidates where rect.contains(longitude: points[item].longitude, latitude: points[item].latitude) {
                    results.append(item)
                }
            }
        }
    }

    /// Items within `radiusMeters` of `center`.
    mutating func within(
        radiusMeters: Double, of center: Coordinate, model: DistanceModel, index: some RectCandidateIndex,
        into results: inout [Int]
    ) {
        guard radiusMeters >= 0 else { return }
        BenchRect.covering(circleAround: center, radiusMeters: radiusMeters, model: model).forEach { rect in
            candidates.removeAll(keepingCapacity: true)
            index.collect(rect, into: &candidates)
            points.withUnsafeBufferPointer { points in
                for item in candidates where distanceMeters(from: center, to: points[item], model: model) <= radiusMeters {
                    results.append(item)
                }
            }
        }
    }

    /// The `count` items nearest to `point`, nearest first, ties by item index.
    mutating func nearest(
        to point: Coordinate, count: Int, model: DistanceModel, index: some RectCandidateIndex,
        into results: inout [Neighbor]
    ) {
        guard count > 0, !points.isEmpty else { return }
        var radius = nearestStartMeters * Double(count).squareRoot()
        while true {
            candidates.removeAll(keepingCapacity: true)
            let everything = radius >= PeerQueries.maxDistanceMeters
            if everything {
                candidates.append(contentsOf: points.indices)
            } else {
                BenchRect.covering(circleAround: point, radiusMeters: radius, model: model).forEach { rect in
                    index.collect(rect, into: &candidates)
                }
                if candidates.count < count {
                    radius *= 2
                    continue
                }
            }
            measured.removeAll(keepingCapacity: true)
            points.withUnsafeBufferPointer { points in
                for item in candidates {
                    let distance = distanceMeters(from: point, to: points[item], model: model)
                    if everything || distance <= radius { measured.append(Neighbor(item: item, distanceMeters: distance)) }
                }
            }
            if everything || measured.count >= count {
                measured.sort()
                results.append(contentsOf: measured.prefix(count))
                return
            }
            radius *= 2
        }
    }

    /// Circles containing `point`.
    mutating func containing(_ point: Coordinate, model: DistanceModel, index: some RectCandidateIndex, into results: inout [Int]) {
        candidates.removeAll(keepingCapacity: true)
        let rect = BenchRect(west: point.longitude, south: point.latitude, east: point.longitude, north: point.latitude)
        index.collect(rect, into: &candidates)
        circles.withUnsafeBufferPointer { circles in
            for item in candidates where distanceMeters(from: circles[item].center, to: point, model: model) <= circles[item].radiusMeters {
                results.append(item)
            }
        }
    }
}
