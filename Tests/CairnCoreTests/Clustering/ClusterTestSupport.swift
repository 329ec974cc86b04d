import Foundation
@testable import CairnCore

/// A brute-force clustering oracle written straight from supercluster's description (quadratic per level), with
/// Cairn's two documented extensions: x distances wrap across the antimeridian (unless the options say not), and points at identical
/// coordinates are grouped first (a cluster at `maxZoom + 1` in the first member's place). With float32 precision,
/// as supercluster: projections are rounded to Float, and an entry takes another when the other's position rounded
/// to Float lies within the radius of its own (a cluster's own position is the Double centroid). A group that stays
/// below minPoints passes its neighbours on in supercluster's k-d tree order.
struct ClusterOracle {
    struct Entry: Equatable {
        var x: Double
        var y: Double
        var weight: Int
        var members: [Int]
        /// nil for a single point.
        var id: ClusterID?
        /// Children's member lists, in order (clusters only).
        var children: [[Int]]
        /// The input position of the point the entry grew from (itself for a point).
        var origin: Int = -1
    }

    /// Levels by zoom, from `maxZoom + 1` down to `minZoom`.
    var levels: [Int: [Entry]] = [:]

    init(_ coordinates: [Coordinate], options: ClusterOptions, groupIdentical: Bool = true) {
        let float32 = options.precision == .float32
        func held(_ v: Double) -> Double { float32 ? Double(Float(v)) : v }
        var level: [Entry] = coordinates.enumerated().map { i, c in
            var x = held(c.longitude / 360 + 0.5)
            if x >= 1 { x = 0 }
            let s = sin(c.latitude * .pi / 180)
            let y = held(min(1, max(0, 0.5 - 0.25 * log((1 + s) / (1 - s)) / .pi)))
            return Entry(x: x, y: y, weight: 1, members: [i], id: nil, children: [], origin: i)
        }
        func sameMeridian(_ a: Double, _ b: Double) -> Bool { a == b || (abs(a) == 180 && abs(b) == 180) }
        let top = options.maxZoom + 1
        if groupIdentical {
            var grouped: [Entry] = []
            var taken = Set<Int>()
            for i in level.indices where !taken.contains(i) {
                let same = level.indices.filter {
                    $0 > i && !taken.contains($0) && coordinates[$0].latitude == coordinates[i].latitude
                        && sameMeridian(coordinates[$0].longitude, coordinates[i].longitude)
                }
                if same.isEmpty {
                    grouped.append(level[i])
                } else {
                    taken.formUnion(same)
                    let members = [i] + same
                    grouped.append(Entry(x: level[i].x, y: level[i].y, weight: members.count, members: members,
                                         id: ClusterID(zoom: top, origin: i), children: members.map { [$0] }, origin: i))
                }
            }
            level = grouped
        }
        levels[top] = level
        for zoom in stride(from: options.maxZoom, through: options.minZoom, by: -1) {
            let r = options.radiusPixels / (options.extent * pow(2, Double(zoom)))
            var visited = [Bool](repeating: false, count: level.count)
            var next: [Entry] = []
            // supercluster's neighbour order (its k-d tree walk), in which a group below minPoints passes its
            // neighbours on; ClusterKDOrder's own check is the golden file made by the independent reference.
            var positions = level.flatMap { [held($0.x), held($0.y)] }
            let rank = ClusterKDOrder.ranks(positions: &positions)
            for i in level.indices where !visited[i] {
                visited[i] = true
                let e = level[i]
                var neighbours: [Int] = []
                for j in level.indices where !visited[j] {
                    var dx = abs(e.x - held(level[j].x))
                    if dx > 0.5, options.wrapsAntimeridian { dx = 1 - dx }
                    let dy = e.y - held(level[j].y)
                    if dx * dx + dy * dy <= r * r { neighbours.append(j) }
                }
                let total = e.weight + neighbours.reduce(0) { $0 + level[$1].weight }
                for j in neighbours { visited[j] = true }
                if total > e.weight, total >= options.minPoints {
                    var wx = e.x * Double(e.weight), wy = e.y * Double(e.weight)
                    for j in neighbours {
                        var fx = level[j].x
                        if options.wrapsAntimeridian {
                            if fx - e.x > 0.5 { fx -= 1 } else if fx - e.x < -0.5 { fx += 1 }
                        }
                        wx += fx * Double(level[j].weight)
                        wy += level[j].y * Double(level[j].weight)
                    }
                    var cx = wx / Double(total)
                    if cx < 0 { cx += 1 } else if cx >= 1 { cx -= 1 }
                    let kids = [i] + neighbours
                    next.append(Entry(x: cx, y: wy / Double(total), weight: total,
                                      members: kids.flatMap { level[$0].members }.sorted(),
                                      id: ClusterID(zoom: zoom, origin: e.origin), children: kids.map { level[$0].members.sorted() },
                                      origin: e.origin))
                } else {
                    next.append(e)
                    for j in neighbours.sorted(by: { rank[$0] < rank[$1] }) { next.append(level[j]) }
                }
            }
            level = next
            levels[zoom] = level
        }
    }

    /// The level shown at `zoom`.
    func level(_ zoom: Int, options: ClusterOptions) -> [Entry] {
        levels[max(options.minZoom, min(zoom, options.maxZoom + 1))] ?? []
    }
}

extension ClusterIndex {
    /// Every entry shown at `zoom` in the oracle's shape (members sorted), keyed by members.
    func oracleShaped(zoom: Int) throws -> [[Int]: ClusterOracle.Entry] {
        var result: [[Int]: ClusterOracle.Entry] = [:]
        for node in clusters(in: .world, zoom: zoom) {
            switch node.content {
            case .point(let i):
                result[[i]] = .init(x: points.positions[i].x, y: points.positions[i].y, weight: 1, members: [i], id: nil, children: [])
            case .cluster(let id):
                let e = try requireEntry(self, id)
                let members = try leaves(of: id, limit: .max).sorted()
                let kids = try children(of: id).map { child -> [Int] in
                    switch child.content {
                    case .point(let i): return [i]
                    case .cluster(let cid): return try leaves(of: cid, limit: .max).sorted()
                    }
                }
                result[members] = .init(x: hierarchy.x(e), y: hierarchy.y(e), weight: node.pointCount, members: members, id: id, children: kids)
            }
        }
        return result
    }
}

struct MissingEntry: Error {}

/// The entry of a cluster id, or an error.
func requireEntry(_ index: ClusterIndex, _ id: ClusterID) throws -> Int {
    guard let e = index.hierarchy.entry(of: id) else { throw MissingEntry() }
    return e
}

/// Compares a level of the index with an oracle level: same members, weights, centroids within `tolerance`,
/// and (when `ids`) the same cluster ids and children. Returns the differences found, empty when equal.
func clusterDifferences(_ actual: [[Int]: ClusterOracle.Entry], _ expected: [ClusterOracle.Entry], tolerance: Double = 1e-12,
                        ids: Bool = true) -> [String] {
    var problems: [String] = []
    if actual.count != expected.count { problems.append("\(actual.count) entries, expected \(expected.count)") }
    for e in expected {
        let key = e.members.sorted()
        guard let a = actual[key] else {
            problems.append("missing entry with members \(key.prefix(8))… weight \(e.weight)")
            continue
        }
        if a.weight != e.weight { problems.append("weight \(a.weight) != \(e.weight) for \(key.prefix(8))") }
        var dx = abs(a.x - e.x)
        if dx > 0.5 { dx = 1 - dx }
        if dx > tolerance || abs(a.y - e.y) > tolerance { problems.append("centroid (\(a.x), \(a.y)) != (\(e.x), \(e.y)) for \(key.prefix(8))") }
        if ids {
            if a.id != e.id { problems.append("id \(String(describing: a.id)) != \(String(describing: e.id)) for \(key.prefix(8))") }
            if a.children != e.children { problems.append("children differ for \(key.prefix(8))") }
        }
        if problems.count > 10 { break }
    }
    return problems
}

/// CairnCore's SplitMix64 (SeededRandom) for the clustering tests.
struct ClusterRandom: RandomNumberGenerator {
    private var base: SeededRandom
    init(seed: UInt64) { base = SeededRandom(seed: seed) }
    mutating func next() -> UInt64 { base.next() }
    mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }
    mutating func uniform(_ lo: Double, _ hi: Double) -> Double { lo + (hi - lo) * unit() }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }

    /// Points in a few tight clumps (so clusters form at many zooms), with duplicates, some across the
    /// antimeridian and some at the poles' Mercator limit.
    mutating func clumpedCoordinates(_ n: Int) -> [Coordinate] {
        let centres: [(Double, Double)] = [(60.17, 24.94), (0, 179.995), (-33.9, 151.2), (89.5, -40), (-85.2, 10), (40.7, -74)]
        var result: [Coordinate] = []
        for _ in 0..<n {
            if !result.isEmpty, below(10) == 0 {
                result.append(result[below(result.count)])
                continue
            }
            let c = centres[below(centres.count)]
            let spread = [0.0005, 0.01, 0.3, 5][below(4)]
            var lon = c.1 + uniform(-spread, spread)
            if lon > 180 { lon -= 360 } else if lon < -180 { lon += 360 }
            let lat = min(90, max(-90, c.0 + uniform(-spread, spread)))
            result.append(Coordinate(uncheckedLatitude: lat, longitude: lon))
        }
        return result
    }
}
