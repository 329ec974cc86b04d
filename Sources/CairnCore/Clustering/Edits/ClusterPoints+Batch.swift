extension ClusterPoints {
    /// The points after a batch of edits (`ClusterEditBatch`): its live numbers in order, at the batch's coordinates
    /// and at `positions` (by number, as the hierarchy held them), with their values: an old point's own, an appended
    /// one's from the batch. Category codes of appended values are given in append order, removed points' too, as
    /// appending them one by one gives.
    /// - Complexity: O(n) in runs of kept points between the r removed ones.
    func finishing(_ batch: ClusterEditBatch, positions: [ClusterPosition]) -> ClusterPoints {
        var result = self
        let k = numericCount
        var appendedCodes: [Int32] = []
        if countsCategories { appendedCodes = batch.appended.map { result.code(for: $0.category) } }
        let total = batch.startCount + batch.appended.count
        let kept = total - batch.removed.count
        var coordinates: [Coordinate] = [], positionsKept: [ClusterPosition] = [], numbers: [Double] = [], categories: [Int32] = []
        coordinates.reserveCapacity(kept)
        positionsKept.reserveCapacity(kept)
        numbers.reserveCapacity(kept * k)
        if countsCategories { categories.reserveCapacity(kept) }
        // Runs of kept numbers between the removed ones: old points' values by slices, appended ones' one by one.
        var start = 0
        for end in batch.removed + [total] {
            if start < end {
                coordinates.append(contentsOf: batch.coordinates[start..<end])
                positionsKept.append(contentsOf: positions[start..<end])
                if start < batch.startCount {
                    let old = start..<min(end, batch.startCount)
                    numbers.append(contentsOf: self.numbers[old.lowerBound * k..<old.upperBound * k])
                    if countsCategories { categories.append(contentsOf: self.categories[old]) }
                }
                for s in max(start, batch.startCount)..<max(end, batch.startCount) {
                    let values = batch.appended[s - batch.startCount].numbers
                    for i in 0..<k { numbers.append(i < values.count ? values[i] : .nan) }
                    if countsCategories { categories.append(appendedCodes[s - batch.startCount]) }
                }
            }
            start = end + 1
        }
        result.coordinates = coordinates
        result.positions = positionsKept
        result.numbers = numbers
        result.categories = categories
        return result
    }
}
