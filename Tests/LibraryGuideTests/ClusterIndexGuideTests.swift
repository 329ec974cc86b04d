import CairnCore
import CairnIO
import Testing

/// docs/LIBRARY.md, "ClusterIndex and its GeoJSON": the guide's code, verbatim, then the results it states.
@Suite struct ClusterIndexGuideTests {
    @Test func clustersOfCafesAsGeoJSON() throws {
        let cafes = [
            try Feature(id: "kappeli", kind: .place, location: Coordinate(latitude: 60.1676, longitude: 24.9488),
                        attributes: ["seats": .number(120)]),
            try Feature(id: "ekberg", kind: .place, location: Coordinate(latitude: 60.1622, longitude: 24.9386),
                        attributes: ["seats": .number(40)]),
            try Feature(id: "regatta", kind: .place, location: Coordinate(latitude: 60.1795, longitude: 24.9105),
                        attributes: ["seats": .number(30)]),
            try Feature(id: "runo", kind: .place, location: Coordinate(latitude: 61.4981, longitude: 23.7608),
                        attributes: ["seats": .number(60)]),
        ]
        let clusters = ClusterIndex(features: cafes, options: try ClusterOptions(numericAttributes: ["seats"]))

        // What a map shows at zoom 6: Helsinki's three cafés as one cluster, Tampere's alone (north first).
        let shown = clusters.clusters(in: .world, zoom: 6)
        var lines: [String] = []
        for node in shown {
            if let id = node.clusterID {
                let splitsAt = try clusters.expansionZoom(of: id)
                let members = try clusters.leaves(of: id, limit: 10).map { cafes[$0].id }
                lines.append("cluster of \(node.pointCount), splits at zoom \(splitsAt): \(members)")
            } else if let point = node.pointIndex {
                lines.append("point \(cafes[point].id)")
            }
        }
        // ["point runo", "cluster of 3, splits at zoom 10: [\"kappeli\", \"ekberg\", \"regatta\"]"]

        // The same nodes as GeoJSON for a map client, with supercluster's properties and the seats aggregates.
        let sink = MemorySink()
        ClusterWriter(index: clusters, features: cafes).writeCollection(shown, to: sink)

        #expect(lines == ["point runo", "cluster of 3, splits at zoom 10: [\"kappeli\", \"ekberg\", \"regatta\"]"])
        #expect(sink.text == """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","id":"runo","geometry":{"type":"Point","coordinates":[23.7608,61.4981]},"properties":{"kind":"place","seats":60}},
            {"type":"Feature","id":9,"geometry":{"type":"Point","coordinates":[24.932627677917466,60.169766683204955]},"properties":{"cluster":true,"cluster_id":9,"point_count":3,"point_count_abbreviated":3,"expansion_zoom":10,"seats_sum":190,"seats_min":30,"seats_max":120,"seats_mean":63.333333333333336}}
            ]}

            """)
    }
}
