/// Memory of its own holding the elements of an `IndexBuffer` built in memory: allocated and filled once by its
/// creator, never written again, released when the last buffer sharing it goes.
final class IndexBufferStorage<Element: BitwiseCopyable>: @unchecked Sendable {
    // @unchecked: the memory is written only in `init` and released only in `deinit`.
    /// The elements, at a fixed address for the object's life.
    let elements: UnsafeMutableBufferPointer<Element>

    /// Memory for `count` elements, not yet initialized: its creator initializes every element before reading.
    /// - Complexity: O(1).
    init(count: Int) {
        elements = UnsafeMutableBufferPointer<Element>.allocate(capacity: count)
    }

    deinit {
        // Plain numbers (BitwiseCopyable): nothing to deinitialize before releasing the memory.
        elements.deallocate()
    }
}
