/// A read-only flat array of plain numbers: either built in memory or a view into bytes that another object keeps
/// alive (a mapped snapshot file), so an index reloads from a file without a copy, as kdbush and flatbush do.
///
/// Indexes read it the way they read a `ContiguousArray`: `count`, a subscript and `withUnsafeBufferPointer`.
/// Both kinds are one pointer and one count taken once, kept valid by `owner`, so a hot loop gets one
/// `UnsafeBufferPointer` from one call site whatever the storage (two call sites stopped the search loops being
/// inlined). Copies share the owner; the memory is released only when the last copy goes.
struct IndexBuffer<Element: BitwiseCopyable>: @unchecked Sendable {
    // @unchecked: `elements` is never written through, and `owner` keeps its memory alive and unchanged.
    /// The elements; valid while `owner` lives.
    private let elements: UnsafeBufferPointer<Element>
    /// Keeps `elements` alive: an `IndexBufferStorage` for a buffer built in memory, the mapping for a view, nil
    /// when empty.
    private let owner: AnyObject?
    /// Bytes of memory `owner` holds for this buffer (0 for a view).
    let ownedBytes: Int

    /// A buffer holding a copy of `array` in memory of its own: a pointer taken from an array would be valid
    /// only inside the array's `withUnsafeBufferPointer`.
    /// - Complexity: O(n) (one copy of the elements).
    init(_ array: ContiguousArray<Element>) {
        self.init(count: array.count) { _ = $0.initialize(fromContentsOf: array) }
    }

    /// A buffer of `count` elements in memory of its own, written in place by `initialize`, which must initialize
    /// every element before it returns (builders fill their arrays this way, with no copy).
    /// - Complexity: O(1) plus `initialize`.
    init(count: Int, initializingWith initialize: (UnsafeMutableBufferPointer<Element>) -> Void) {
        guard count > 0 else {
            elements = UnsafeBufferPointer(start: nil, count: 0)
            owner = nil
            ownedBytes = 0
            return
        }
        let storage = IndexBufferStorage<Element>(count: count)
        initialize(storage.elements)
        elements = UnsafeBufferPointer(storage.elements)
        owner = storage
        ownedBytes = count * MemoryLayout<Element>.stride
    }

    /// A buffer reading `elements` in place; `owner` must keep that memory valid and unchanged while it lives.
    /// - Complexity: O(1).
    init(viewing elements: UnsafeBufferPointer<Element>, owner: AnyObject) {
        self.elements = elements
        self.owner = owner
        ownedBytes = 0
    }

    /// The number of elements.
    /// - Complexity: O(1).
    var count: Int { elements.count }

    /// Whether the buffer holds no elements.
    /// - Complexity: O(1).
    var isEmpty: Bool { elements.isEmpty }

    /// `0..<count`.
    /// - Complexity: O(1).
    var indices: Range<Int> { 0..<elements.count }

    /// The element at `index` (bounds-checked in every build, as an array's subscript is).
    /// - Complexity: O(1).
    subscript(index: Int) -> Element {
        precondition(index >= 0 && index < elements.count, "IndexBuffer index out of range")
        return withExtendedLifetime(owner) { elements[index] }
    }

    /// Calls `body` with the elements' memory, valid only during the call.
    /// - Complexity: O(1) plus `body`.
    @inline(__always)
    func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
        try withExtendedLifetime(owner) { try body(elements) }
    }
}

extension IndexBuffer: Equatable where Element: Equatable {
    /// Element-wise equality, whatever each buffer's storage.
    /// - Complexity: O(n).
    static func == (lhs: IndexBuffer, rhs: IndexBuffer) -> Bool {
        lhs.withUnsafeBufferPointer { a in rhs.withUnsafeBufferPointer { b in a.elementsEqual(b) } }
    }
}
