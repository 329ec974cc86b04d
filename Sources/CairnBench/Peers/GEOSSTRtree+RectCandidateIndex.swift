import CairnGEOS

/// An STRtree is a rectangle index whose candidates are exact (GEOS compares the doubles as given).
extension GEOSSTRtree: RectCandidateIndex {
    func collect(_ rect: BenchRect, into candidates: inout [Int]) {
        // A failed query (GEOS out of memory) adds nothing: the bench's comparison with the reference reports it.
        try? query(rect.envelope, into: &candidates)
    }
}
