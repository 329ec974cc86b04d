import CCairnShims

extension UnsafeBufferPointer {
    /// Asks the processor to start loading element `index` into its caches: a hint for loops that read scattered
    /// elements, so that several loads are under way at once. Changes no result; ignored out of range.
    /// - Complexity: O(1).
    @inline(__always)
    func prefetch(_ index: Int) {
        guard let base = baseAddress, index >= 0, index < count else { return }
        cairn_prefetch(base + index)
    }
}
