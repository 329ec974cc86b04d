/// Which cells of one axis of a leaf lie surely inside a query's closed range, surely outside it, or neither (the
/// entry's exact position decides). Thresholds keep a cell of margin on each side, far above rounding error.
struct CellTest: AxisTest {
    private var inLo: Int32, inHi: Int32, outLo: Int32, outHi: Int32

    /// Every cell inside.
    static let all = CellTest(inLo: 0, inHi: Int32(ClusterTree.cellsPerAxis - 1), outLo: -1, outHi: Int32(ClusterTree.cellsPerAxis))
    /// No cell decided: read every exact position.
    static let exact = CellTest(inLo: 1, inHi: 0, outLo: -1, outHi: Int32(ClusterTree.cellsPerAxis))

    private init(inLo: Int32, inHi: Int32, outLo: Int32, outHi: Int32) {
        (self.inLo, self.inHi, self.outLo, self.outHi) = (inLo, inHi, outLo, outHi)
    }

    /// The test for range [a0, a1] on a leaf spanning [lo, hi] on this axis.
    init(_ lo: Double, _ hi: Double, _ a0: Double, _ a1: Double) {
        let scale = ClusterTree.cellScale(lo, hi)
        guard scale > 0 else {
            self = .exact
            return
        }
        @inline(__always) func clamp(_ v: Double) -> Int32 { Int32(min(Double(ClusterTree.cellsPerAxis + 2), max(-2, v))) }
        let t0 = (a0 - lo) * scale, t1 = (a1 - lo) * scale
        self.init(inLo: clamp(t0.rounded(.up) + 1), inHi: clamp(t1.rounded(.down) - 2),
                  outLo: clamp(t0.rounded(.down) - 2), outHi: clamp(t1.rounded(.up) + 1))
    }

    @inline(__always)
    func includes(_ q: Int32) -> Bool { q >= inLo && q <= inHi }

    @inline(__always)
    func excludes(_ q: Int32) -> Bool { q <= outLo || q >= outHi }
}
