/// One or two disjoint rectangles, without a heap allocation.
struct BenchRects: Sendable {
    /// The first rectangle.
    let first: BenchRect
    /// The second one, if any.
    let second: BenchRect?

    /// `first`, and `second` when there is one.
    /// - Complexity: O(1).
    init(_ first: BenchRect, _ second: BenchRect? = nil) {
        self.first = first
        self.second = second
    }

    /// Calls `body` with each rectangle.
    /// - Complexity: O(1) calls.
    @inline(__always)
    func forEach(_ body: (BenchRect) throws -> Void) rethrows {
        try body(first)
        if let second { try body(second) }
    }
}
