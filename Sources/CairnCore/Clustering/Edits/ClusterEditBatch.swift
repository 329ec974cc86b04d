/// A batch of edits being applied to a `ClusterIndex` (`ClusterIndex.apply`): its points, and the entries it
/// deleted, in a numbering that no edit of the batch changes.
///
/// Each edit used to renumber every entry stored in the hierarchy (a point removed or appended moves every later
/// entry by one): per edit, passes over all the tables. Within a batch the points keep the numbers they had before
/// it instead, the points the batch appends taking the numbers reserved after them (`reserved`, one per insert),
/// and a removed point keeps its number, dead, until the batch ends; `ClusterHierarchy.finishBatch` then renumbers
/// every table once. Input positions still order the points (the clustering compares origins only), so a plan made
/// in this numbering is the plan made in the input's.
struct ClusterEditBatch {
    /// Points before the batch: numbers `0..<startCount`.
    let startCount: Int
    /// Numbers reserved for appended points: `startCount..<startCount + reserved`.
    let reserved: Int
    /// Coordinates by number (moves applied; zero past the points appended so far).
    private(set) var coordinates: [Coordinate]
    /// Values of the appended points, in order of their numbers (those removed again included).
    private(set) var appended: [(numbers: [Double], category: String?)] = []
    /// Numbers of the points removed, ascending.
    private(set) var removed: [Int] = []
    /// Cluster rows before the batch: the rows it adds follow them.
    let clusterRowsAtStart: Int
    /// Cluster entries the batch deleted (`ClusterHierarchy.applyInBatch`), in the batch's numbering.
    var deletedClusters: [Int] = []

    /// Starts a batch over `points` and a hierarchy of `clusterRows` clusters, with room for `reserved` appended
    /// points.
    /// - Complexity: O(n) (a copy of the coordinates).
    init(points: ClusterPoints, reserved: Int, clusterRows: Int) {
        startCount = points.count
        clusterRowsAtStart = clusterRows
        self.reserved = reserved
        coordinates = points.coordinates
        coordinates.append(contentsOf: repeatElement(Coordinate(uncheckedLatitude: 0, longitude: 0), count: reserved))
    }

    /// Points now.
    var count: Int { startCount + appended.count - removed.count }

    /// The number of the point at input position `index` (0..<count).
    /// - Complexity: O(r) for the r points removed so far.
    func number(ofPosition index: Int) -> Int {
        // The index-th number not removed: each removed number at or before the candidate pushes it one further.
        var number = index
        for r in removed {
            guard r <= number else { break }
            number += 1
        }
        return number
    }

    /// Appends a point: returns its number.
    /// - Complexity: O(1) amortized.
    mutating func append(_ coordinate: Coordinate, numbers: [Double], category: String?) -> Int {
        precondition(appended.count < reserved, "more points appended than the batch reserved")
        let number = startCount + appended.count
        appended.append((numbers, category))
        coordinates[number] = coordinate
        return number
    }

    /// Marks point `number` removed.
    /// - Complexity: O(r) for the r points removed so far.
    mutating func remove(number: Int) {
        var lo = 0, hi = removed.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if removed[mid] < number { lo = mid + 1 } else { hi = mid }
        }
        removed.insert(number, at: lo)
    }

    /// Moves point `number` to `coordinate`.
    /// - Complexity: O(1).
    mutating func move(number: Int, to coordinate: Coordinate) {
        coordinates[number] = coordinate
    }
}
