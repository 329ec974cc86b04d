/// A read-only flat array of plain numbers: either built in memory or a view into bytes that another object keeps
/// alive (a mapped snapshot file), so an index reloads from a file without a copy, as kdbush and flatbush do.
///
/// Indexes read it the way they read a `ContiguousArray`: `count`, a subscript and `withUnsafeBufferPointer`.
struct IndexBuffer<Element: BitwiseCopyable>: @unchecked Sendable {
    // @unchecked: the view is never written through, and `owner` keeps its memory alive and unchanged.
    private let owned: ContiguousArray<Element>
    private let view: UnsafeBufferPointer<Element>?
    private let owner: AnyObject?

    /// A buffer holding `array`.
    /// - Complexity: O(1).
    init(_ array: ContiguousArray<Element>) {
        owned = array
        view = nil
        owner = nil
    }

    /// A buffer reading `elements` in place; `owner` must keep that memory valid and unchanged while it lives.
    /// - Complexity: O(1).
    init(viewing elements: UnsafeBufferPointer<Element>, owner: AnyObject) {
        owned = []
        view = elements
        self.owner = owner
    }

    /// The number of elements.
    /// - Complexity: O(1).
    var count: Int { view?.count ?? owned.count }

    /// Whether the buffer holds no elements.
    /// - Complexity: O(1).
    var isEmpty: Bool { count == 0 }

    /// `0..<count`.
    /// - Complexity: O(1).
    var indices: Range<Int> { 0..<count }

    /// Bytes of memory the buffer holds itself: its capacity when built in memory, 0 for a view (the file's pages
    /// belong to the page cache).
    /// - Complexity: O(1).
    var ownedBytes: Int { view == nil ? owned.capacity * MemoryLayout<Element>.stride : 0 }

    /// The element at `index` (bounds-checked).
    /// - Complexity: O(1).
    subscript(index: Int) -> Element {
        if let view { return view[index] }
        return owned[index]
    }

    /// Calls `body` with the elements' memory.
    /// - Complexity: O(1) plus `body`.
    func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
        if let view { return try body(view) }
        return try owned.withUnsafeBufferPointer(body)
    }
}

extension IndexBuffer: Equatable where Element: Equatable {
    /// Element-wise equality, whatever each buffer's storage.
    /// - Complexity: O(n).
    static func == (lhs: IndexBuffer, rhs: IndexBuffer) -> Bool {
        lhs.withUnsafeBufferPointer { a in rhs.withUnsafeBufferPointer { b in a.elementsEqual(b) } }
    }
}
