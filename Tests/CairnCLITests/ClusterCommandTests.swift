import CairnTestSupport
import ArgumentParser
import CairnCore
import Foundation
import Testing
@testable import CairnCLI

/// `cairn cluster` end to end, in-process, on a small file and on a store.
@Suite struct ClusterCommandTests {
    let folder: TemporaryFolder
    let csv: String

    init() throws {
        folder = try TemporaryFolder()
        // Three events at one place (identical points), two nearby, one across the antimeridian pair, one far away.
        csv = try folder.write("events.csv", """
            id,name,lat,lon,category,price
            a,Match A,60.1700,24.9400,football,10
            b,Match B,60.1700,24.9400,football,20
            c,Match C,60.1700,24.9400,tennis,
            d,Run,60.1710,24.9410,running,5
            e,Padel,60.1690,24.9390,padel,15
            f,Fiji east,-16.8,179.99,football,1
            g,Fiji west,-16.8,-179.99,tennis,2
            h,Far,-33.9,151.2,football,3

            """)
    }

    func run(_ arguments: [String]) throws -> [String: Any] {
        let out = folder.path + "/out-\(UUID().uuidString).json"
        var command = try CairnCommand.parseAsRoot(["cluster"] + arguments + ["--out", out])
        try command.run()
        let data = try Data(contentsOf: URL(fileURLWithPath: out))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    func properties(_ collection: [String: Any]) throws -> [[String: Any]] {
        let features = try #require(collection["features"] as? [[String: Any]])
        return try features.map { try #require($0["properties"] as? [String: Any]) }
    }

    @Test func zoomZeroGroupsNeighboursAndTheAntimeridianPair() throws {
        let props = try properties(try run(["--input", csv, "--zoom", "0", "--sum", "price", "--count-by", "category"]))
        let counts = props.map { ($0["point_count"] as? Int) ?? 1 }.sorted()
        #expect(counts == [1, 2, 5])
        let helsinki = try #require(props.first { ($0["point_count"] as? Int) == 5 })
        #expect(helsinki["cluster"] as? Bool == true)
        #expect(helsinki["price_sum"] as? Double == 50)
        #expect(helsinki["price_min"] as? Double == 5 && helsinki["price_max"] as? Double == 20)
        #expect(helsinki["price_mean"] as? Double == 12.5)
        #expect(helsinki["category_counts"] as? [String: Int] == ["football": 2, "tennis": 1, "running": 1, "padel": 1])
        let single = try #require(props.first { $0["cluster"] == nil })
        #expect(single["name"] as? String == "Far")
        // --no-wrap: the pair across the antimeridian stays apart, as in supercluster.
        let split = try properties(try run(["--input", csv, "--zoom", "0", "--no-wrap"]))
        #expect(split.map { ($0["point_count"] as? Int) ?? 1 }.sorted() == [1, 1, 1, 5])
        let float64 = try properties(try run(["--input", csv, "--zoom", "0", "--precision", "float64"]))
        #expect(float64.map { ($0["point_count"] as? Int) ?? 1 }.sorted() == [1, 2, 5])
    }

    /// A fractional zoom, as map SDKs report while zooming, uses the level below (supercluster floors it); a box
    /// with longitudes beyond ±180 names the same meridians.
    @Test func fractionalZoomsAndUnwrappedBoxes() throws {
        for (fractional, level) in [("0.5", "0"), ("12.99", "12"), ("3.0", "3")] {
            let a = try properties(try run(["--input", csv, "--zoom", fractional]))
            let b = try properties(try run(["--input", csv, "--zoom", level]))
            #expect(a.map { ($0["point_count"] as? Int) ?? 1 }.sorted() == b.map { ($0["point_count"] as? Int) ?? 1 }.sorted(), "\(fractional)")
        }
        let wrapped = try properties(try run(["--input", csv, "--zoom", "5", "--bbox", "179,-20,-179,-10"]))
        let unwrapped = try properties(try run(["--input", csv, "--zoom", "5", "--bbox", "179,-20,181,-10"]))
        let counts = { (props: [[String: Any]]) in props.map { ($0["point_count"] as? Int) ?? 1 }.reduce(0, +) }
        #expect(counts(wrapped) == 2 && counts(unwrapped) == 2, "the Fiji pair, in one box either way")
        #expect(throws: (any Error).self) { try CairnCommand.parseAsRoot(["cluster", "--input", csv, "--zoom", "24.5"]) }
        #expect(throws: (any Error).self) { try CairnCommand.parseAsRoot(["cluster", "--input", csv, "--zoom", "nan"]) }
    }

    @Test func openingAClusterDownToIdenticalPoints() throws {
        let top = try properties(try run(["--input", csv, "--zoom", "20", "--bbox", "24,60,25,61"]))
        let identical = try #require(top.first { ($0["point_count"] as? Int) == 3 })
        #expect(identical["identical_points"] as? Bool == true)
        let id = try #require(identical["cluster_id"] as? Int)
        let expand = try run(["--input", csv, "--expand", String(id)])
        #expect(expand["identical_points"] as? Bool == true)
        let leaves = try properties(try run(["--input", csv, "--leaves", String(id)]))
        #expect(leaves.map { $0["name"] as? String } == ["Match A", "Match B", "Match C"])
        let page = try properties(try run(["--input", csv, "--leaves", String(id), "--limit", "1", "--offset", "1"]))
        #expect(page.map { $0["name"] as? String } == ["Match B"])

        let low = try properties(try run(["--input", csv, "--zoom", "5", "--bbox", "24,60,25,61"]))
        let cluster = try #require(low.first)
        let lowId = try #require(cluster["cluster_id"] as? Int)
        let zoom = try #require(cluster["expansion_zoom"] as? Int)
        #expect(try run(["--input", csv, "--expand", String(lowId)])["expansion_zoom"] as? Int == zoom)
        let children = try properties(try run(["--input", csv, "--children", String(lowId)]))
        #expect(children.reduce(0) { $0 + (($1["point_count"] as? Int) ?? 1) } == 5)
    }

    @Test func filtersAndTheStore() throws {
        let db = folder.path + "/c.sqlite"
        var importer = try CairnCommand.parseAsRoot(["import", csv, "--db", db, "--no-progress"])
        try importer.run()
        let props = try properties(try run(["--db", db, "--zoom", "0", "--where", "category=football"]))
        #expect(props.map { ($0["point_count"] as? Int) ?? 1 }.sorted() == [1, 1, 2])
    }

    @Test func gridModeCellsOfTheViewport() throws {
        let props = try properties(try run(["--input", csv, "--mode", "grid", "--bbox", "24.9,60.16,24.98,60.18",
                                            "--width", "800", "--height", "600", "--cell-size", "100"]))
        #expect(props.reduce(0) { $0 + (($1["point_count"] as? Int) ?? 1) } == 5)
        #expect(props.allSatisfy { $0["cluster"] == nil || $0["pixel_x"] != nil })
        // Without --zoom (1024x768 pixels), and sized by --zoom instead of --width and --height.
        // The box is 0.08° wide: 1,024 pixels plainly, about 1,864 at zoom 14 (tiles of --extent, 512 pixels), so
        // the 60-pixel cells cut the five Helsinki points (mid-box) differently.
        func counts(_ props: [[String: Any]]) -> [Int] { props.map { ($0["point_count"] as? Int) ?? 1 }.sorted() }
        let plain = try properties(try run(["--input", csv, "--mode", "grid", "--bbox", "24.9,60.16,24.98,60.18"]))
        #expect(counts(plain) == [1, 1, 3])
        let zoomed = try properties(try run(["--input", csv, "--mode", "grid", "--zoom", "14", "--bbox", "24.9,60.16,24.98,60.18"]))
        #expect(counts(zoomed) == [1, 4])
        #expect(plain.allSatisfy { (($0["pixel_x"] as? Double) ?? 0) < 600 })
        #expect(zoomed.contains { (($0["pixel_x"] as? Double) ?? 0) > 900 })
    }

    @Test func tilesInSuperclusterShape() throws {
        let tile = try run(["--input", csv, "--tile", "0/0/0"])
        let features = try #require(tile["features"] as? [[String: Any]])
        // Zoom 0 (as the hierarchy test above): the Helsinki five, the antimeridian pair (drawn on both edges of the
        // world tile, inside its buffer), and the far point.
        let counts = try features.map { f -> Int in
            #expect(f["type"] as? Int == 1)
            let tags = try #require(f["tags"] as? [String: Any])
            let geometry = try #require(f["geometry"] as? [[Int]])
            #expect(geometry.count == 1 && geometry[0].count == 2)
            if tags["cluster"] as? Bool == true {
                let id = try #require(tags["cluster_id"] as? Int)
                #expect(id == f["id"] as? Int)
            }
            return tags["point_count"] as? Int ?? 1
        }
        #expect(counts.sorted() == [1, 2, 2, 5])
        // The pair is drawn at both edges of the 512-pixel tile.
        let pairXs = features.filter { (($0["tags"] as? [String: Any])?["point_count"] as? Int) == 2 }
            .compactMap { ($0["geometry"] as? [[Int]])?.first?[0] }
        #expect(pairXs.sorted() == [0, 512])
        let single = try #require(features.first { ($0["tags"] as? [String: Any])?["name"] != nil })
        #expect((single["tags"] as? [String: Any])?["name"] as? String == "Far")
        #expect(throws: (any Error).self) { try CairnCommand.parseAsRoot(["cluster", "--input", csv, "--tile", "3/8/1"]) }
        #expect(throws: (any Error).self) { try CairnCommand.parseAsRoot(["cluster", "--input", csv, "--tile", "3-1-1"]) }
        #expect(throws: (any Error).self) { try CairnCommand.parseAsRoot(["cluster", "--input", csv, "--tile", "3/1/1", "--zoom", "3"]) }
    }

    @Test func refusals() throws {
        #expect(throws: (any Error).self) { try CairnCommand.parseAsRoot(["cluster", "--input", csv]) }
        #expect(throws: (any Error).self) { try CairnCommand.parseAsRoot(["cluster", "--input", csv, "--zoom", "25"]) }
        #expect(throws: (any Error).self) { try CairnCommand.parseAsRoot(["cluster", "--input", csv, "--expand", "1", "--leaves", "1"]) }
        #expect(throws: (any Error).self) { try run(["--input", csv, "--zoom", "1", "--max-zoom", "30"]) }
        #expect(throws: (any Error).self) { try run(["--input", csv, "--children", "999999"]) }
        #expect(throws: (any Error).self) {
            try CairnCommand.parseAsRoot(["cluster", "--input", csv, "--zoom", "3", "--count-by", "category", "--count-by", "name"])
        }
        #expect(throws: (any Error).self) {
            try CairnCommand.parseAsRoot(["cluster", "--input", csv, "--mode", "grid", "--zoom", "3", "--width", "100"])
        }
        #expect(throws: (any Error).self) { try run(["--input", csv, "--mode", "grid", "--zoom", "24"]) } // the world: too many pixels
        #expect(throws: (any Error).self) { try CairnCommand.parseAsRoot(["cluster", "--input", csv, "--zoom", "3", "--cell-size", "40"]) }
        #expect(throws: (any Error).self) { try CairnCommand.parseAsRoot(["cluster", "--input", csv, "--zoom", "3", "--merge"]) }
        let help = ClusterCommand.helpMessage()
        for option in ["--bbox", "--zoom", "--mode", "--radius", "--extent", "--min-points", "--max-zoom", "--input", "--db",
                       "--kind", "--where", "--expand", "--children", "--leaves", "--cell-size", "--merge", "--precision", "--no-wrap",
                       "--tile"] {
            #expect(help.contains(option), "help lacks \(option)")
        }
    }
}
