import CairnTestSupport
import ArgumentParser
import CairnCore
import CairnStore
import Foundation
import Testing
@testable import CairnCLI

/// `cairn import --s-srs`, the refusal of projected positions, and `--t-srs` on query, get and cluster output.
@Suite struct CoordinateSystemCommandTests {
    let folder: TemporaryFolder
    let db: String

    // pyproj's answer (scripts/crs-check): this WGS84 position in EPSG:3067 and in Web Mercator (EPSG:3857).
    static let longitude = 24.0256486, latitude = 69.8678511
    static let gridX = 385785.8191056211, gridY = 7753920.543452315
    static let mercatorX = 2674522.968130126, mercatorY = 11025839.976811668

    init() throws {
        folder = try TemporaryFolder()
        db = folder.path + "/crs.sqlite"
    }

    func importFile(_ path: String, _ extra: [String] = []) throws {
        var command = try CairnCommand.parseAsRoot(["import", path, "--db", db, "--no-progress"] + extra)
        try command.run()
    }

    func run(_ arguments: [String]) throws -> String {
        let out = folder.path + "/out-\(UUID().uuidString)"
        var command = try CairnCommand.parseAsRoot(arguments + ["--db", db, "--out", out])
        try command.run()
        return try String(contentsOfFile: out, encoding: .utf8)
    }

    @Test func importWithSSRSStoresDegrees() throws {
        let path = try folder.write("grid.csv", "id,x,y\nlapland,\(Self.gridX),\(Self.gridY)\n")
        try importFile(path, ["--s-srs", "EPSG:3067"])
        let feature = try #require(try FeatureStore(path: db).feature(id: "lapland"))
        #expect(abs(feature.location.longitude - Self.longitude) < 1e-9)
        #expect(abs(feature.location.latitude - Self.latitude) < 1e-9)
    }

    @Test func queryOutputInAnotherSystem() throws {
        let path = try folder.write("places.csv", "id,lon,lat\nlapland,\(Self.longitude),\(Self.latitude)\n")
        try importFile(path)
        let geojson = try run(["bbox", "--bbox", "-180,-90,180,90", "--t-srs", "EPSG:3857"])
        #expect(geojson.hasPrefix(#"{"type":"FeatureCollection","crs":{"type":"name","properties":{"name":"urn:ogc:def:crs:EPSG::3857"}},"features":["#))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(geojson.utf8)) as? [String: Any])
        let features = try #require(json["features"] as? [[String: Any]])
        let coordinates = try #require((features.first?["geometry"] as? [String: Any])?["coordinates"] as? [Double])
        #expect(abs(coordinates[0] - Self.mercatorX) < 0.001 && abs(coordinates[1] - Self.mercatorY) < 0.001)

        let csv = try run(["around", "--lat", "69.8", "--long", "24", "--rad", "20km", "--format", "csv", "--t-srs", "EPSG:3067"])
        let lines = csv.split(separator: "\n")
        #expect(lines.first == "id,kind,y,x,radiusMeters,startTime,endTime,distance_m")
        let fields = try #require(lines.dropFirst().first).split(separator: ",", omittingEmptySubsequences: false)
        let y = try #require(Double(fields[2])), x = try #require(Double(fields[3]))
        #expect(abs(y - Self.gridY) < 0.001 && abs(x - Self.gridX) < 0.001)
        // Distances stay metres whatever the output system.
        let plain = try run(["around", "--lat", "69.8", "--long", "24", "--rad", "20km", "--format", "csv"])
        #expect(plain.split(separator: "\n").dropFirst().first?.split(separator: ",", omittingEmptySubsequences: false).last
                == fields.last)

        let flat = try run(["nearest", "--lat", "69.8", "--long", "24", "--format", "json", "--t-srs", "EPSG:3067"])
        #expect(flat.contains(#""x":385785.8"#) && flat.contains(#""y":7753920.5"#) && !flat.contains("latitude"))
    }

    @Test func getAndClusterWriteTheOutputSystem() throws {
        let path = try folder.write("places.csv", "id,lon,lat\nlapland,\(Self.longitude),\(Self.latitude)\n")
        try importFile(path)
        let get = try CairnCommand.parseAsRoot(["get", "lapland", "--db", db, "--t-srs", "EPSG:3857"])
        #expect(get is GetCommand)
        let cluster = try run(["cluster", "--zoom", "3", "--t-srs", "EPSG:3857"])
        #expect(cluster.hasPrefix(#"{"type":"FeatureCollection","crs":{"type":"name","properties":{"name":"urn:ogc:def:crs:EPSG::3857"}},"features":["#))
        #expect(cluster.contains("[2674522.9"))
        #expect(throws: (any Error).self) {
            var command = try CairnCommand.parseAsRoot(["cluster", "--tile", "1/0/0", "--t-srs", "EPSG:3857", "--db", db])
            try command.run()
        }
    }

    @Test func unknownSystemsAreClearErrors() {
        for arguments in [["import", "x.csv", "--s-srs", "EPSG:99999"], ["bbox", "--bbox", "0,0,1,1", "--t-srs", "EPSG:99999"],
                          ["get", "a", "--t-srs", "EPSG:99999"]] {
            #expect {
                _ = try CairnCommand.parseAsRoot(arguments)
            } throws: { error in
                let message = CairnCommand.message(for: error)
                return message.contains("coordinate system 'EPSG:99999'") && message.contains(arguments.contains("--s-srs") ? "--s-srs" : "--t-srs")
            }
        }
    }

    @Test func projectedPositionsWithoutASystemAreOneErrorAndWriteNothing() throws {
        let path = try folder.write("grid.csv", "id,lat,lon\na,6672000,385000\nb,6672001,385001\nc,6672002,385002\n")
        let result = try CairnProcess.run(["import", path, "--db", db, "--no-progress"], in: folder.path)
        #expect(result.status == 1)
        // One message for the file, not one per row.
        #expect(result.error.contains("\(path): these look like projected coordinates (x 385000, y 6672000 at line 2); pass --s-srs; nothing was written"))
        #expect(result.error.components(separatedBy: "projected").count == 2)
        let fixed = try CairnProcess.run(["import", path, "--db", db, "--no-progress", "--s-srs", "EPSG:3067"], in: folder.path)
        #expect(fixed.status == 0)
        #expect(fixed.output == "\(path): coordinates from EPSG:3067 (--s-srs)\nimported 3, rejected 0\n")
    }
}
