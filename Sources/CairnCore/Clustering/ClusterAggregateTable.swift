/// Aggregates of every cluster, stored flat: four numbers per numeric attribute, categories as (code, count) runs.
struct ClusterAggregateTable: Sendable {
    let numericCount: Int
    let countsCategories: Bool
    /// The points' own values (shared with `ClusterPoints`, not copied).
    let leafNumbers: [Double]
    let leafCategories: [Int32]
    /// Per cluster and attribute: sum, min, max, count.
    var stats: [Double] = []
    /// Per cluster: where its category counts start (one more than there are clusters).
    var categoryStart: [UInt32] = [0]
    var categoryCodes: [Int32] = []
    var categoryCounts: [UInt32] = []
    private var scratch: [UInt32]
    private var touched: [Int32] = []

    init(points: ClusterPoints) {
        numericCount = points.numericCount
        countsCategories = points.countsCategories
        leafNumbers = points.numbers
        leafCategories = points.categories
        scratch = [UInt32](repeating: 0, count: points.categoryNames.count)
    }

    /// Whether any aggregate is kept.
    var isActive: Bool { numericCount > 0 || countsCategories }

    var memoryBytes: Int {
        stats.capacity * 8 + categoryStart.capacity * 4 + categoryCodes.capacity * 4 + categoryCounts.capacity * 4
    }

    /// Computes the aggregates of a new cluster from its children's.
    mutating func appendCluster(children: ArraySlice<UInt32>, leafCount: Int) {
        if numericCount > 0 {
            let base = stats.count
            for _ in 0..<numericCount { stats.append(contentsOf: [0, .infinity, -.infinity, 0]) }
            for child in children {
                let c = Int(child)
                for a in 0..<numericCount {
                    let s = base + 4 * a
                    if c < leafCount {
                        let v = leafNumbers[c * numericCount + a]
                        if v.isNaN { continue }
                        stats[s] += v
                        stats[s + 1] = Swift.min(stats[s + 1], v)
                        stats[s + 2] = Swift.max(stats[s + 2], v)
                        stats[s + 3] += 1
                    } else {
                        let t = (c - leafCount) * numericCount * 4 + 4 * a
                        stats[s] += stats[t]
                        stats[s + 1] = Swift.min(stats[s + 1], stats[t + 1])
                        stats[s + 2] = Swift.max(stats[s + 2], stats[t + 2])
                        stats[s + 3] += stats[t + 3]
                    }
                }
            }
        }
        if countsCategories {
            for child in children {
                let c = Int(child)
                if c < leafCount {
                    let code = leafCategories[c]
                    if code >= 0 { bump(code, by: 1) }
                } else {
                    let k = c - leafCount
                    for r in Int(categoryStart[k])..<Int(categoryStart[k + 1]) { bump(categoryCodes[r], by: categoryCounts[r]) }
                }
            }
            touched.sort()
            for code in touched {
                categoryCodes.append(code)
                categoryCounts.append(scratch[Int(code)])
                scratch[Int(code)] = 0
            }
            touched.removeAll(keepingCapacity: true)
            categoryStart.append(UInt32(categoryCodes.count))
        }
    }

    private mutating func bump(_ code: Int32, by k: UInt32) {
        if scratch[Int(code)] == 0 { touched.append(code) }
        scratch[Int(code)] += k
    }

    /// The public aggregates of entry `e` (a point or a cluster) holding `weight` points.
    func aggregates(ofEntry e: Int, weight: Int, leafCount: Int, options: ClusterOptions, names: [String]) -> ClusterAggregates {
        var numeric: [String: ClusterAggregates.Summary] = [:]
        for (a, name) in options.numericAttributes.enumerated() where a < numericCount {
            if e < leafCount {
                let v = leafNumbers[e * numericCount + a]
                numeric[name] = v.isNaN ? .init(count: 0, sum: 0, min: nil, max: nil) : .init(count: 1, sum: v, min: v, max: v)
            } else {
                let t = (e - leafCount) * numericCount * 4 + 4 * a
                let n = Int(stats[t + 3])
                numeric[name] = .init(count: n, sum: stats[t], min: n > 0 ? stats[t + 1] : nil, max: n > 0 ? stats[t + 2] : nil)
            }
        }
        var categories: [String: Int] = [:]
        if countsCategories {
            if e < leafCount {
                let code = leafCategories[e]
                if code >= 0 { categories[names[Int(code)]] = 1 }
            } else {
                let k = e - leafCount
                for r in Int(categoryStart[k])..<Int(categoryStart[k + 1]) {
                    categories[names[Int(categoryCodes[r])]] = Int(categoryCounts[r])
                }
            }
        }
        return ClusterAggregates(pointCount: weight, numeric: numeric, categories: categories)
    }
}
