/// Many rings, flat, each with its edges indexed by latitude band: the crossing test of `ShapeRing` reading only
/// the edges whose latitude range can hold the point's, not every edge of the ring.
///
/// Why it is exact: an edge a → b changes the crossing test at latitude y only when y lies in its closed latitude
/// range (otherwise both ends are above y, or both below, and neither is at y), and the test is an XOR over edges in
/// any order. Ring r's latitude range is cut into `bands` equal slabs; the band of a latitude is
/// `min(Int((y - south) * bandsPerDegree), bands - 1)`, which never decreases as y grows (each rounded operation is
/// monotone), so an edge listed in every band from the band of its lowest end to the band of its highest is listed
/// in the band of any latitude it holds, the boundary included. Each listed edge is then decided by
/// `ShapeRing.edgeStep`, the same rule, so answers are identical to `ShapeRing.crossing` over the whole ring.
///
/// Size: about one band per `edgesPerBand` edges; an edge is listed once per band it spans (about 2 · bands + edges
/// entries for a ring whose latitude goes up and down once), 4 bytes each. Rings whose long edges would list
/// more than `maximumEntriesPerEdge` entries per edge get fewer bands, so the index stays linear in the edges.
///
/// Layout, for the cache: what a query reads of a ring sits together, its header (32 bytes, one cache line) and
/// one block holding its band starts then its entries, since a containment query meets each ring cold (a chain of
/// dependent misses is what a candidate costs, more than its instructions).
struct RingEdgeIndex: Sendable {
    /// Edges per band aimed at: a band then lists about 2 + `edgesPerBand` edges (the two a horizontal line
    /// crosses in a ring that goes up and down once, and those inside the slab).
    static let edgesPerBand = 2
    /// The most band entries per edge (plus one per band) before a ring's bands are halved.
    static let maximumEntriesPerEdge = 4
    /// Rings of fewer edges are read whole (`ShapeRing.crossing`), without bands: their positions stream in
    /// order, while a band costs a chain of dependent reads (header, band starts, entries, then scattered edges).
    /// On `cairn bench --polygons` (rings of 8 to 64 edges) banding every ring cut a query's instructions but not
    /// its time, so bands are for the rings where reading every edge is what costs (a country's thousands).
    static let smallestBandedRing = 64

    /// The positions of ring `r` are `ringStarts[r]..<ringStarts[r + 1]` in `positions`; rings + 1 entries.
    let ringStarts: ContiguousArray<UInt32>
    /// Longitude, latitude of every ring's positions, ring by ring, each ring closed (its first position last).
    let positions: ContiguousArray<Double>
    /// Per ring, four doubles: south, north, bands per degree of latitude (0 for a ring of one band), and the bit
    /// pattern of `block << 32 | bands` (`blocks[block...]` is the ring's block, `bands` its band count).
    let ringHeaders: ContiguousArray<Double>
    /// Per ring a block: `bands + 1` band starts, relative to the block (band `b`'s entries are
    /// `blocks[block + starts[b] ..< block + starts[b + 1]]`), then the entries, each the position (in `positions`,
    /// pairs) where its edge starts; the edge ends at the next position.
    let blocks: ContiguousArray<UInt32>

    /// Indexes the rings at `ringStarts` in `positions` (each closed, first position repeated last).
    /// - Complexity: O(v) for v positions, times O(log b) when long edges make a ring's b bands halve.
    init(ringStarts: ContiguousArray<UInt32>, positions: ContiguousArray<Double>) {
        self.ringStarts = ringStarts
        self.positions = positions
        let ringCount = ringStarts.count - 1
        var ringHeaders = ContiguousArray<Double>()
        ringHeaders.reserveCapacity(4 * ringCount)
        var blocks = ContiguousArray<UInt32>()
        blocks.reserveCapacity(2 * positions.count)
        // Scratch for one ring: each edge's first and last band; the counting sort's counters.
        var edgeBands: [Int] = [], counts: [Int] = []
        positions.withUnsafeBufferPointer { positions in
            for ring in 0..<ringCount {
                let first = Int(ringStarts[ring]), end = Int(ringStarts[ring + 1])
                var south = Double.infinity, north = -Double.infinity
                for position in first..<end {
                    south = Swift.min(south, positions[2 * position + 1])
                    north = Swift.max(north, positions[2 * position + 1])
                }
                let edges = Swift.max(0, end - first - 1)
                guard edges >= RingEdgeIndex.smallestBandedRing else {
                    // Read whole: a header without bands or block.
                    ringHeaders.append(south)
                    ringHeaders.append(north)
                    ringHeaders.append(0)
                    ringHeaders.append(Double(bitPattern: 0))
                    continue
                }
                // Halved while long edges overfill the bands.
                var bands = Swift.max(1, edges / RingEdgeIndex.edgesPerBand)
                var bandsPerDegree = 0.0, entries = 0
                while true {
                    bandsPerDegree = bands > 1 ? Double(bands) / (north - south) : 0
                    if !bandsPerDegree.isFinite || bandsPerDegree <= 0 { (bands, bandsPerDegree) = (1, 0) }
                    if edgeBands.count < 2 * edges { edgeBands.append(contentsOf: repeatElement(0, count: 2 * edges - edgeBands.count)) }
                    counts.removeAll(keepingCapacity: true)
                    counts.append(contentsOf: repeatElement(0, count: bands + 1))
                    // Each edge's bands, counted per band as they are found (band + 1: the sort's starts follow).
                    entries = edgeBands.withUnsafeMutableBufferPointer { edgeBands in
                        counts.withUnsafeMutableBufferPointer { counts in
                            var entries = 0
                            for edge in 0..<edges {
                                let ay = positions[2 &* (first &+ edge) &+ 1], by = positions[2 &* (first &+ edge) &+ 3]
                                let low = RingEdgeIndex.band(Swift.min(ay, by), south: south, bandsPerDegree: bandsPerDegree, bands: bands)
                                let high = RingEdgeIndex.band(Swift.max(ay, by), south: south, bandsPerDegree: bandsPerDegree, bands: bands)
                                edgeBands[2 &* edge] = low
                                edgeBands[2 &* edge &+ 1] = high
                                var band = low
                                repeat {
                                    counts[band &+ 1] &+= 1
                                    band &+= 1
                                } while band <= high
                                entries &+= high &- low &+ 1
                            }
                            return entries
                        }
                    }
                    if bands == 1 || entries <= RingEdgeIndex.maximumEntriesPerEdge * edges + bands { break }
                    bands /= 2
                }
                // The block: band starts, then a counting sort of the edges into their bands.
                let block = blocks.count
                precondition(block + bands + 1 + entries < Int(UInt32.max), "RingEdgeIndex holds fewer than \(UInt32.max) block words")
                ringHeaders.append(south)
                ringHeaders.append(north)
                ringHeaders.append(bandsPerDegree)
                ringHeaders.append(Double(bitPattern: UInt64(block) << 32 | UInt64(bands)))
                blocks.append(contentsOf: repeatElement(0, count: bands + 1 + entries))
                edgeBands.withUnsafeBufferPointer { edgeBands in
                    counts.withUnsafeMutableBufferPointer { counts in
                        blocks.withUnsafeMutableBufferPointer { blocks in
                            // Band b's entries start at bands + 1 + counts[b] within the block.
                            counts[0] = bands &+ 1
                            blocks[block] = UInt32(truncatingIfNeeded: counts[0])
                            for band in 0..<bands {
                                counts[band &+ 1] &+= counts[band]
                                blocks[block &+ band &+ 1] = UInt32(truncatingIfNeeded: counts[band &+ 1])
                            }
                            for edge in 0..<edges {
                                var band = edgeBands[2 &* edge]
                                let high = edgeBands[2 &* edge &+ 1]
                                repeat {
                                    blocks[block &+ counts[band]] = UInt32(truncatingIfNeeded: first &+ edge)
                                    counts[band] &+= 1
                                    band &+= 1
                                } while band <= high
                            }
                        }
                    }
                }
            }
        }
        self.ringHeaders = ringHeaders
        self.blocks = blocks
    }

    /// The band (`0..<bands`) of latitude `y`, at or above `south` and finite: the rule the build and the query share.
    /// - Complexity: O(1).
    @inline(__always)
    static func band(_ y: Double, south: Double, bandsPerDegree: Double, bands: Int) -> Int {
        Swift.min(Int((y - south) * bandsPerDegree), bands - 1)
    }

    /// The number of rings.
    /// - Complexity: O(1).
    var ringCount: Int { ringStarts.count - 1 }

    /// `ShapeRing.crossing` of ring `ring` at (x, y): from the edges of the band holding y, or over the whole ring
    /// below `smallestBandedRing` edges.
    /// - Complexity: O(k) for the k edges listed in that band (about 2 + `edgesPerBand` for a ring that goes up
    ///   and down once); O(v) for a ring of v < `smallestBandedRing` positions.
    @inline(__always)
    func crossing(ring: Int, x: Double, y: Double) -> ShapeRing.Crossing {
        let start = Int(ringStarts[ring]), end = Int(ringStarts[ring + 1])
        if end &- start &- 1 < RingEdgeIndex.smallestBandedRing {
            // An empty ring (never in a `Shape`, which needs four positions a ring) holds nothing.
            guard end > start else { return .even }
            return positions.withUnsafeBufferPointer { ShapeRing.crossing($0, start..<end, x: x, y: y) }
        }
        return ringHeaders.withUnsafeBufferPointer { headers in
            let south = headers[4 &* ring], north = headers[4 &* ring &+ 1]
            // No edge holds a latitude outside the ring's (NaN too): outside, off the boundary.
            guard y >= south, y <= north else { return .even }
            return blocks.withUnsafeBufferPointer { blocks in
                positions.withUnsafeBufferPointer { positions in
                    let packed = headers[4 &* ring &+ 3].bitPattern
                    let block = Int(truncatingIfNeeded: packed >> 32), bands = Int(truncatingIfNeeded: packed & 0xFFFF_FFFF)
                    let band = block &+ RingEdgeIndex.band(y, south: south, bandsPerDegree: headers[4 &* ring &+ 2], bands: bands)
                    var odd = false
                    for entry in (block &+ Int(blocks[band]))..<(block &+ Int(blocks[band &+ 1])) {
                        let a = 2 &* Int(blocks[entry])
                        if ShapeRing.edgeStep(positions[a], positions[a &+ 1], positions[a &+ 2], positions[a &+ 3], x: x, y: y, odd: &odd) {
                            return .boundary
                        }
                    }
                    return odd ? .odd : .even
                }
            }
        }
    }

    /// Ring `ring`'s south, north, bands per degree and band count (0 for a ring read whole), as its header holds
    /// them.
    /// - Complexity: O(1).
    func header(ofRing ring: Int) -> (south: Double, north: Double, bandsPerDegree: Double, bands: Int) {
        let packed = ringHeaders[4 * ring + 3].bitPattern
        return (ringHeaders[4 * ring], ringHeaders[4 * ring + 1], ringHeaders[4 * ring + 2], Int(packed & 0xFFFF_FFFF))
    }

    /// The number of band entries of ring `ring` (an edge once per band it spans).
    /// - Complexity: O(1).
    func entryCount(ofRing ring: Int) -> Int {
        let packed = ringHeaders[4 * ring + 3].bitPattern
        let block = Int(packed >> 32), bands = Int(packed & 0xFFFF_FFFF)
        guard bands > 0 else { return 0 }
        return Int(blocks[block + bands]) - (bands + 1)
    }
}
