import CairnCore
import CairnIO
import CairnStore
import CairnTestSupport
import Foundation
import Testing

/// docs/LIBRARY.md, "CairnIO: openFeatureReader" and "CairnStore: FeatureStore": the guide's code, verbatim, then
/// the results it states.
@Suite struct FeatureReaderGuideTests {
    @Test func readAFileWithABadRowThenStoreAndQuery() throws {
        let temporary = try TemporaryFolder()
        defer { temporary.remove() }
        let folder = temporary.path

        let parksPath = folder + "/parks.csv"
        try """
            id,name,kind,lat,lon,fenced
            kaivopuisto,Kaivopuisto,park,60.1569,24.9562,true
            sibelius,Sibelius Park,park,95.1823,24.9130,false
            esplanadi,Esplanadi,park,60.1676,24.9460,false
            """.write(toFile: parksPath, atomically: true, encoding: .utf8)

        let reader = try openFeatureReader(path: parksPath, options: ImportOptions())
        var parks: [Feature] = []
        var rejections: [RowRejection] = []
        try reader.forEachRecord { parks.append($0) } rejected: { rejections.append($0) }
        // parks.map(\.id) == ["kaivopuisto", "esplanadi"]
        // rejections.map { "line \($0.line): \($0.reason)" } ==
        //     ["line 3: field 'latitude': latitude 95.1823 is out of range [-90, 90] (are latitude and longitude swapped?)"]

        #expect(parks.map(\.id) == ["kaivopuisto", "esplanadi"])
        #expect(rejections.map { "line \($0.line): \($0.reason)" } ==
            ["line 3: field 'latitude': latitude 95.1823 is out of range [-90, 90] (are latitude and longitude swapped?)"])
        #expect(rejections.map(\.field) == ["latitude"])

        let store = try FeatureStore(path: folder + "/cairn.sqlite")
        try store.upsert(parks)
        try store.write { writer in
            try writer.upsert(try Feature(id: "sibelius", kind: .park,
                                          location: Coordinate(latitude: 60.1823, longitude: 24.9130)))
            _ = try writer.delete(id: "esplanadi")
        }
        let stored = try store.count()
        // 2

        let storeIndex = StoreIndex(store: store)
        let (nearest, loaded) = try storeIndex.answer { index in
            index.nearest(to: try Coordinate(latitude: 60.1699, longitude: 24.9384), count: 2)
                .map { index.features[$0.item].id }
        }
        // nearest == ["kaivopuisto", "sibelius"]; loaded.source is .built(reason: .noSnapshot, saved: .written(...))
        let again = try storeIndex.current()
        // again.source is .snapshot(path: folder + "/cairn.sqlite.snapshot", byteCount: ...)

        #expect(stored == 2)
        #expect(nearest == ["kaivopuisto", "sibelius"])
        guard case .built(reason: .noSnapshot, saved: .written) = loaded.source else {
            Issue.record("expected a first build that wrote the snapshot, got \(loaded.source)")
            return
        }
        guard case .snapshot(let path, _) = again.source else {
            Issue.record("expected the snapshot, got \(again.source)")
            return
        }
        #expect(path == folder + "/cairn.sqlite.snapshot")
    }
}
