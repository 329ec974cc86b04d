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
struct RingEdgeIndex: Sendable {
    /// Edges per band aimed at: a band then lists about 2 + `edgesPerBand` edges (the two a horizontal line
    /// crosses in a ring that goes up and down once, and those inside the slab).
    static let edgesPerBand = 2
    /// The most band entries per edge (plus one per band) before a ring's bands are halved.
    static let maximumEntriesPerEdge = 4

    /// The positions of ring `r` are `ringStarts[r]..<ringStarts[r + 1]` in `positions`; rings + 1 entries.
    let ringStarts: ContiguousArray<UInt32>
    /// Longitude, latitude of every ring's positions, ring by ring, each ring closed (its first position last).
    let positions: ContiguousArray<Double>
    /// Per ring: south, north, bands per degree of latitude (0 for a ring of one band).
    let ringLatitudes: ContiguousArray<Double>
    /// The bands of ring `r` are `ringBands[r]..<ringBands[r + 1]`; rings + 1 entries.
    let ringBands: ContiguousArray<UInt32>
    /// The edges of band `b` are `bandEdges[bandStarts[b]..<bandStarts[b + 1]]`; bands + 1 entries.
    let bandStarts: ContiguousArray<UInt32>
    /// Per band entry, the position (in `positions`, pairs) where its edge starts; the edge ends at the next one.
    let bandEdges: ContiguousArray<UInt32>

    /// Indexes the rings at `ringStarts` in `positions` (each closed, first position repeated last).
    /// - Complexity: O(v) for v positions, times O(log b) when long edges make a ring's b bands halve.
    init(ringStarts: ContiguousArray<UInt32>, positions: ContiguousArray<Double>) {
        self.ringStarts = ringStarts
        self.positions = positions
        let ringCount = ringStarts.count - 1
        var ringLatitudes = ContiguousArray<Double>()
        ringLatitudes.reserveCapacity(3 * ringCount)
        var ringBands: ContiguousArray<UInt32> = [0]
        ringBands.reserveCapacity(ringCount + 1)
        var bandStarts: ContiguousArray<UInt32> = [0]
        bandStarts.reserveCapacity(positions.count / (2 * RingEdgeIndex.edgesPerBand) + ringCount + 1)
        var bandEdges = ContiguousArray<UInt32>()
        bandEdges.reserveCapacity(3 * positions.count / 2)
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
                ringLatitudes.append(south)
                ringLatitudes.append(north)
                ringLatitudes.append(bandsPerDegree)
                // A counting sort of the edges into their bands.
                let base = bandEdges.count
                precondition(base + entries < Int(UInt32.max), "RingEdgeIndex holds fewer than \(UInt32.max) band entries")
                bandEdges.append(contentsOf: repeatElement(0, count: entries))
                edgeBands.withUnsafeBufferPointer { edgeBands in
                    counts.withUnsafeMutableBufferPointer { counts in
                        for band in 0..<bands {
                            counts[band &+ 1] &+= counts[band]
                            bandStarts.append(UInt32(base &+ counts[band &+ 1]))
                        }
                        bandEdges.withUnsafeMutableBufferPointer { bandEdges in
                            for edge in 0..<edges {
                                var band = edgeBands[2 &* edge]
                                let high = edgeBands[2 &* edge &+ 1]
                                repeat {
                                    bandEdges[base &+ counts[band]] = UInt32(truncatingIfNeeded: first &+ edge)
                                    counts[band] &+= 1
                                    band &+= 1
                                } while band <= high
                            }
                        }
                    }
                }
                ringBands.append(UInt32(bandStarts.count - 1))
            }
        }
        self.ringLatitudes = ringLatitudes
        self.ringBands = ringBands
        self.bandStarts = bandStarts
        self.bandEdges = bandEdges
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

    /// `ShapeRing.crossing` of ring `ring` at (x, y), from the edges of the band holding y.
    /// - Complexity: O(k) for the k edges listed in that band (about 2 + `edgesPerBand` for a ring that goes up
    ///   and down once).
    @inline(__always)
    func crossing(ring: Int, x: Double, y: Double) -> ShapeRing.Crossing {
        ringLatitudes.withUnsafeBufferPointer { latitudes in
            let south = latitudes[3 * ring], north = latitudes[3 * ring + 1]
            // No edge holds a latitude outside the ring's (NaN too): outside, off the boundary.
            guard y >= south, y <= north else { return .even }
            return ringBands.withUnsafeBufferPointer { ringBands in
                bandStarts.withUnsafeBufferPointer { bandStarts in
                    bandEdges.withUnsafeBufferPointer { bandEdges in
                        positions.withUnsafeBufferPointer { positions in
                            let firstBand = Int(ringBands[ring])
                            let band = firstBand + RingEdgeIndex.band(y, south: south, bandsPerDegree: latitudes[3 * ring + 2],
                                                                      bands: Int(ringBands[ring + 1]) - firstBand)
                            var odd = false
                            for entry in Int(bandStarts[band])..<Int(bandStarts[band + 1]) {
                                let a = 2 * Int(bandEdges[entry])
                                if ShapeRing.edgeStep(positions[a], positions[a + 1], positions[a + 2], positions[a + 3],
                                                      x: x, y: y, odd: &odd) {
                                    return .boundary
                                }
                            }
                            return odd ? .odd : .even
                        }
                    }
                }
            }
        }
    }
}
