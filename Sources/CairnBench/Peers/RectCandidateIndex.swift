/// A peer's rectangle index: answers which stored rectangles meet a query rectangle, possibly with extra
/// candidates (SQLite's R*Tree stores 32-bit floats rounded outwards), never with missing ones.
protocol RectCandidateIndex {
    /// Appends the item of every stored rectangle that meets `rect` (edges inclusive).
    func collect(_ rect: BenchRect, into candidates: inout [Int])
}
