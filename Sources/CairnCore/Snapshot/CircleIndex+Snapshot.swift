extension CircleIndex {
    /// Writes the centres' tree: `CTRE` (circle count and bucket size, UInt32 each) and `CIDS` (the circle
    /// numbers in tree order). Centres and radii are not written: they come from the features, and the nodes'
    /// largest radii are derived from them.
    func appendSnapshotSections(to builder: inout SnapshotBuilder) {
        var table = ByteSink()
        var ids = ByteSink()
        table.append(UInt32(centers.count))
        table.append(UInt32(centers.bucketSize))
        ids.append(contentsOf: centers.ids)
        builder.add(SnapshotFormat.tag("CTRE"), table.bytes)
        builder.add(SnapshotFormat.tag("CIDS"), ids.bytes)
    }

    /// Rebuilds the index over `circles` (latitude, longitude, radius per circle, already validated) from a
    /// snapshot's tree layout, checking that it holds every circle exactly once, in k-d order.
    /// - Complexity: O(m log m).
    init(snapshot file: SnapshotFile, circles: ContiguousArray<Double>) throws(SnapshotError) {
        let count = circles.count / 3
        var table = try file.reader(SnapshotFormat.tag("CTRE"))
        let treeCount = Int(try table.uint32()), bucketSize = Int(try table.uint32())
        try table.expectEnd()
        guard treeCount == count else { throw table.invalid("the tree holds \(treeCount) circles, the features \(count)") }
        var idReader = try file.reader(SnapshotFormat.tag("CIDS"))
        let ids = ContiguousArray(try idReader.array(of: UInt32.self, count: count))
        try idReader.expectEnd()
        var coordinates = ContiguousArray<Double>(repeating: 0, count: 2 * count)
        for p in ids.indices {
            // An id out of range is refused below, by the point index; read a placeholder meanwhile.
            let circle = Int(ids[p]) < count ? Int(ids[p]) : 0
            coordinates[2 * p + PointIndex.Axis.longitude] = circles[3 * circle + 1]
            coordinates[2 * p + PointIndex.Axis.latitude] = circles[3 * circle]
        }
        do throws(PointIndexLayoutError) {
            let centers = try PointIndex(validatingIds: ids, coordinates: coordinates, bucketSize: bucketSize)
            self.init(centers: centers, circles: circles)
        } catch {
            throw idReader.invalid("circle tree: \(error.detail)")
        }
    }
}
