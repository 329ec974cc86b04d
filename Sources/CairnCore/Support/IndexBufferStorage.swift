/// Memory of its own holding the elements of an `IndexBuffer` built in memory: allocated and filled once, never
/// written again, released when the last buffer sharing it goes.
final class IndexBufferStorage<Element: BitwiseCopyable>: @unchecked Sendable {
    // @unchecked: the memory is written only in `init` and released only in `deinit`.
    /// The elements, at a fixed address for the object's life.
    let elements: UnsafeMutableBufferPointer<Element>

    /// A copy of `array`'s elements.
    /// - Complexity: O(n).
    init(copying array: ContiguousArray<Element>) {
        elements = UnsafeMutableBufferPointer<Element>.allocate(capacity: array.count)
        _ = elements.initialize(fromContentsOf: array)
    }

    deinit {
        // Plain numbers (BitwiseCopyable): nothing to deinitialize before releasing the memory.
        elements.deallocate()
    }
}
