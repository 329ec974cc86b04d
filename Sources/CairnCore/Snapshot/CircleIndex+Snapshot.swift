extension CircleIndex {
    /// Writes the centres' tree: `CTRE` (circle count and bucket size, UInt32 each), `CIDS` (the circle numbers
    /// in tree order), `CCRD` (the centres in tree order), `CVAL` (latitude, longitude, radius per circle) and
    /// `CMAX` (each node's largest radius), so that a mapped index reads them in place.
    func appendSnapshotSections(to builder: inout SnapshotBuilder) {
        var table = ByteSink()
        table.append(UInt32(centers.count))
        table.append(UInt32(centers.bucketSize))
        builder.add(SnapshotFormat.tag("CTRE"), table.bytes)
        builder.add(SnapshotFormat.tag("CIDS"), .words(centers.ids))
        builder.add(SnapshotFormat.tag("CCRD"), .doubles(centers.coordinates))
        builder.add(SnapshotFormat.tag("CVAL"), .doubles(circles))
        builder.add(SnapshotFormat.tag("CMAX"), .doubles(nodeMaxRadiusMeters))
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
        // What a mapped index reads in place must equal what the features imply (compared bit for bit).
        for (name, stored, derived) in [("CCRD", try file.view(SnapshotFormat.tag("CCRD"), of: UInt64.self), self.centers.coordinates),
                                         ("CVAL", try file.view(SnapshotFormat.tag("CVAL"), of: UInt64.self), self.circles),
                                         ("CMAX", try file.view(SnapshotFormat.tag("CMAX"), of: UInt64.self), self.nodeMaxRadiusMeters)]
        where !(stored.count == derived.count && stored.indices.allSatisfy { stored[$0] == derived[$0].bitPattern }) {
            throw SnapshotError(path: file.path, reason: .invalidContent(section: name, detail: "does not match the circles of the features"))
        }
    }
}
