extension CircleIndex {
    /// Writes the tiers' layout: `CTIR` (counts and bucket sizes), `CIDS` (each tier's point-index items) and
    /// `CITM` (each tier's circle numbers). Centres and radii are not written: they come from the features.
    func appendSnapshotSections(to builder: inout SnapshotBuilder) {
        var table = ByteSink()
        var ids = ByteSink()
        var items = ByteSink()
        table.append(UInt32(tiers.count))
        for tier in tiers {
            table.append(UInt32(tier.items.count))
            table.append(UInt32(tier.centers.bucketSize))
            ids.append(contentsOf: tier.centers.ids)
            items.append(contentsOf: tier.items)
        }
        builder.add(SnapshotFormat.tag("CTIR"), table.bytes)
        builder.add(SnapshotFormat.tag("CIDS"), ids.bytes)
        builder.add(SnapshotFormat.tag("CITM"), items.bytes)
    }

    /// Rebuilds the index over `circles` (latitude, longitude, radius per circle, already validated) from a
    /// snapshot's tier layout, checking that the tiers hold every circle exactly once and are each in k-d order.
    /// - Complexity: O(m log m).
    init(snapshot file: SnapshotFile, circles: ContiguousArray<Double>) throws(SnapshotError) {
        let count = circles.count / 3
        var table = try file.reader(SnapshotFormat.tag("CTIR"))
        let tierCount = Int(try table.uint32())
        guard tierCount <= 64 else { throw table.invalid("\(tierCount) tiers (radius tiers are at most 64)") }
        var layout: [(count: Int, bucketSize: Int)] = []
        var total = 0
        for _ in 0..<tierCount {
            let tierSize = Int(try table.uint32()), bucketSize = Int(try table.uint32())
            layout.append((tierSize, bucketSize))
            total += tierSize
        }
        try table.expectEnd()
        guard total == count else { throw table.invalid("the tiers hold \(total) circles, the features \(count)") }
        var idReader = try file.reader(SnapshotFormat.tag("CIDS"))
        var itemReader = try file.reader(SnapshotFormat.tag("CITM"))
        let allIds = try idReader.array(of: UInt32.self, count: count)
        try idReader.expectEnd()
        let allItems = try itemReader.array(of: UInt32.self, count: count)
        try itemReader.expectEnd()
        var seen = [Bool](repeating: false, count: count)
        for item in allItems {
            guard Int(item) < count, !seen[Int(item)] else {
                throw itemReader.invalid("circle \(item) is out of range or in two tiers")
            }
            seen[Int(item)] = true
        }
        var tiers: [Tier] = []
        var start = 0
        for (number, tier) in layout.enumerated() {
            let ids = ContiguousArray(allIds[start..<(start + tier.count)])
            let items = ContiguousArray(allItems[start..<(start + tier.count)])
            start += tier.count
            var coordinates = ContiguousArray<Double>(repeating: 0, count: 2 * tier.count)
            var maxRadius = 0.0
            for p in ids.indices {
                // An id out of range is refused below, by the point index; read a placeholder meanwhile.
                let circle = Int(ids[p]) < items.count ? Int(items[Int(ids[p])]) : 0
                coordinates[2 * p + PointIndex.Axis.longitude] = circles[3 * circle + 1]
                coordinates[2 * p + PointIndex.Axis.latitude] = circles[3 * circle]
            }
            for item in items { maxRadius = max(maxRadius, circles[3 * Int(item) + 2]) }
            do throws(PointIndexLayoutError) {
                let centers = try PointIndex(validatingIds: ids, coordinates: coordinates, bucketSize: tier.bucketSize)
                tiers.append(Tier(centers: centers, items: items, maxRadiusMeters: maxRadius))
            } catch {
                throw idReader.invalid("tier \(number): \(error.detail)")
            }
        }
        self.tiers = tiers
        self.circles = circles
    }
}
