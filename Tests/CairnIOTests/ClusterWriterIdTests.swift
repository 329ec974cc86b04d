import CairnCore
import Foundation
import Testing
@testable import CairnIO

/// The id types docs/CLUSTERS.md promises ("Ids in cluster output"): a cluster's `id` is a JSON number equal to its
/// `cluster_id`, as supercluster writes it; a point's `id` is its feature id as a JSON string, even when it looks like
/// a number (`"007"` must not become 7); grid clusters have no id.
@Suite struct ClusterWriterIdTests {
    let features: [Feature]
    let index: ClusterIndex
    let writer: ClusterWriter

    init() throws {
        // Three places a few metres apart (one cluster at low zooms) and one far away (a lone point at every zoom).
        features = try [
            Feature(id: "2643743", kind: .place, location: Coordinate(latitude: 60.1700, longitude: 24.9400)),
            Feature(id: "007", kind: .place, location: Coordinate(latitude: 60.1701, longitude: 24.9401)),
            Feature(id: "a", kind: .place, location: Coordinate(latitude: 60.1702, longitude: 24.9402)),
            Feature(id: "12345678901234567890", kind: .place, location: Coordinate(latitude: -33.9, longitude: 151.2)),
        ]
        index = ClusterIndex(features: features)
        writer = ClusterWriter(index: index, features: features)
    }

    func decodedFeatures(_ write: (MemorySink) -> Void) throws -> [[String: Any]] {
        let sink = MemorySink()
        write(sink)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(sink.bytes)) as? [String: Any])
        return try #require(object["features"] as? [[String: Any]])
    }

    /// Checks one feature of a collection or a tile (whose properties are `tags`): returns whether it is a cluster.
    @discardableResult
    func checkId(_ feature: [String: Any], propertiesKey: String = "properties") throws -> Bool {
        let properties = try #require(feature[propertiesKey] as? [String: Any])
        if properties["cluster"] as? Bool == true {
            let id = try #require(feature["id"] as? NSNumber, "a cluster's id is a number")
            #expect(!(feature["id"] is String))
            #expect(id.uint64Value == (properties["cluster_id"] as? NSNumber)?.uint64Value)
            return true
        }
        let id = try #require(feature["id"] as? String, "a point's id is its feature id, as text")
        #expect(features.contains { $0.id == id })
        return false
    }

    @Test func clustersHaveNumbersAndPointsTheirTextIds() throws {
        let world = try BoundingBox(west: -180, south: -85, east: 180, north: 85)
        let collection = try decodedFeatures { writer.writeCollection(index.clusters(in: world, zoom: 0), to: $0) }
        let kinds = try collection.map { try checkId($0) }
        #expect(kinds.filter { $0 }.count == 1 && kinds.filter { !$0 }.count == 1)

        let clusterNode = try #require(index.clusters(in: world, zoom: 0).first { if case .cluster = $0.content { true } else { false } })
        guard case .cluster(let clusterId) = clusterNode.content else { return }
        // Down to the points: every level keeps the same two types.
        var pending = [clusterId]
        while let id = pending.popLast() {
            let children = try index.children(of: id)
            for feature in try decodedFeatures({ writer.writeCollection(children, to: $0) }) { try checkId(feature) }
            for child in children { if case .cluster(let inner) = child.content { pending.append(inner) } }
        }
        let leaves = try index.leaves(of: clusterId).map { ClusterNode(content: .point($0), coordinate: features[$0].location, pointCount: 1) }
        let leafIds = try decodedFeatures { writer.writeCollection(leaves, to: $0) }.map { $0["id"] as? String }
        #expect(Set(leafIds.compactMap { $0 }) == ["2643743", "007", "a"])
    }

    @Test func tilesKeepTheSameTypes() throws {
        let tile = try decodedFeatures { writer.writeTile(index.tile(z: 0, x: 0, y: 0), to: $0) }
        let kinds = try tile.map { try checkId($0, propertiesKey: "tags") }
        #expect(kinds.contains(true) && kinds.contains(false))
    }

    @Test func expansionNamesTheClusterByItsNumber() throws {
        let world = try BoundingBox(west: -180, south: -85, east: 180, north: 85)
        let node = try #require(index.clusters(in: world, zoom: 0).first { if case .cluster = $0.content { true } else { false } })
        guard case .cluster(let id) = node.content else { return }
        let sink = MemorySink()
        ClusterWriter.writeExpansion(try index.expansionZoom(of: id), of: id, to: sink)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(sink.bytes)) as? [String: Any])
        #expect((object["cluster_id"] as? NSNumber)?.uint64Value == id.rawValue && !(object["cluster_id"] is String))
    }
}
