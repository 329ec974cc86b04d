import CairnTestSupport
import Testing
@testable import CairnGEOS

/// The STRtree against a brute-force envelope oracle on seeded data, and GEOS failures as `GEOSError`.
@Suite struct GEOSSTRtreeTests {
    /// A random envelope: a point (a third of the time) or a rectangle up to `size` wide and high.
    static func envelope(_ random: inout SplitMix64, size: Double) -> Envelope {
        let x = random.uniform(-180...180), y = random.uniform(-90...90)
        if random.below(3) == 0 { return Envelope(x: x, y: y) }
        return Envelope(minX: x, minY: y, maxX: x + random.uniform(0...size), maxY: y + random.uniform(0...size))
    }

    /// The items of `stored` that meet `query`, in item order.
    static func oracle(_ stored: [Envelope], _ query: Envelope) -> [Int] {
        stored.indices.filter { stored[$0].intersects(query) }
    }

    @Test("Queries find exactly the envelopes that meet them", arguments: [2, 10, 64])
    func queriesMatchTheOracle(nodeCapacity: Int) throws {
        var random = SplitMix64(seed: 14 &+ UInt64(nodeCapacity))
        let stored = (0..<3_000).map { _ in Self.envelope(&random, size: 5) }
        let tree = try GEOSSTRtree(context: GEOSContext(), nodeCapacity: nodeCapacity)
        for (item, envelope) in stored.enumerated() {
            if envelope.minX == envelope.maxX, envelope.minY == envelope.maxY {
                try tree.insert(x: envelope.minX, y: envelope.minY, item: item)
            } else {
                try tree.insert(envelope, item: item)
            }
        }
        try tree.build()
        var found: [Int] = []
        for _ in 0..<300 {
            let query = Self.envelope(&random, size: 40)
            found.removeAll(keepingCapacity: true)
            try tree.query(query, into: &found)
            #expect(found.sorted() == Self.oracle(stored, query), "\(query)")
        }
        // Edges count: a query touching a stored rectangle's corner finds it.
        let corner = try #require(stored.first { $0.minX < $0.maxX })
        #expect(try tree.query(Envelope(x: corner.maxX, y: corner.maxY)).contains(stored.firstIndex(of: corner) ?? -1))
    }

    @Test("An empty tree finds nothing, built or not")
    func emptyTree() throws {
        let tree = try GEOSSTRtree(context: GEOSContext())
        #expect(try tree.query(Envelope(minX: -180, minY: -90, maxX: 180, maxY: 90)).isEmpty)
        try tree.build()
        #expect(try tree.query(Envelope(minX: -180, minY: -90, maxX: 180, maxY: 90)).isEmpty)
    }

    @Test("A tree of one item finds it only where it is")
    func oneItem() throws {
        let tree = try GEOSSTRtree(context: GEOSContext())
        try tree.insert(Envelope(minX: 10, minY: 20, maxX: 11, maxY: 21), item: 0)
        #expect(try tree.query(Envelope(minX: 10.5, minY: 20.5, maxX: 30, maxY: 30)) == [0])
        #expect(try tree.query(Envelope(x: 11, y: 21)) == [0])
        #expect(try tree.query(Envelope(minX: 11.000001, minY: 20, maxX: 12, maxY: 21)).isEmpty)
    }

    @Test("Identical items are all returned, each once")
    func identicalItems() throws {
        let tree = try GEOSSTRtree(context: GEOSContext(), nodeCapacity: 4)
        for item in 0..<100 { try tree.insert(x: 24.94, y: 60.17, item: item) }
        try tree.insert(x: 24.95, y: 60.17, item: 100)
        #expect(try tree.query(Envelope(x: 24.94, y: 60.17)).sorted() == Array(0..<100))
        #expect(try tree.query(Envelope(minX: 24, minY: 60, maxX: 25, maxY: 61)).sorted() == Array(0...100))
    }

    @Test("A GEOS failure surfaces as GEOSError with GEOS's own message, and the context goes on")
    func failureCarriesTheMessage() throws {
        let context = try GEOSContext()
        // WKB that ends after its byte-order mark: GEOS's reader throws a ParseException.
        do throws(GEOSError) {
            _ = try context.withGeometry(wkb: [1, 1]) { _ in true }
            Issue.record("GEOS read two bytes as a geometry")
        } catch {
            #expect(error.function == "GEOSGeomFromWKB_buf_r")
            #expect(error.message.contains("ParseException"), "\(error.message)")
            #expect(error.description.hasPrefix("GEOSGeomFromWKB_buf_r: "))
        }
        // The message was taken: the same context's next calls succeed and report nothing.
        #expect(!context.hasError)
        let tree = try GEOSSTRtree(context: context)
        try tree.insert(x: 1, y: 2, item: 7)
        #expect(try tree.query(Envelope(x: 1, y: 2)) == [7])
        // A point in WKB (little-endian, type 1, x 1, y 2) reads.
        let point: [UInt8] = [1, 1, 0, 0, 0] + withUnsafeBytes(of: 1.0.bitPattern.littleEndian, Array.init)
            + withUnsafeBytes(of: 2.0.bitPattern.littleEndian, Array.init)
        #expect(try context.withGeometry(wkb: point) { _ in true })
    }

    @Test("The version names GEOS's C API")
    func version() {
        #expect(GEOSContext.version.contains("CAPI"))
    }
}
