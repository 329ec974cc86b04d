/// Scratch bytes for the text a check-in scanner unescapes, at least as long as the buffer being scanned (text
/// unescaped from a buffer is never longer than the buffer), so it is never reallocated while a buffer is scanned.
/// Kept from buffer to buffer; the owner calls `deallocate()` once.
struct ScanArena {
    /// The start of the bytes.
    private(set) var base: UnsafeMutablePointer<UInt8>
    /// How many bytes `base` holds.
    private(set) var capacity: Int
    /// How many bytes of this buffer's text are written.
    var used = 0

    /// The first free byte.
    var next: UnsafeMutablePointer<UInt8> { base + used }

    init() {
        capacity = 1 << 12
        base = .allocate(capacity: capacity)
    }

    /// Frees the bytes.
    mutating func deallocate() { base.deallocate() }

    /// Empties the arena for a buffer of `count` bytes, growing it (at least doubling) when it is shorter.
    /// - Complexity: O(1), plus an allocation when it grows.
    mutating func reset(forBufferOf count: Int) {
        used = 0
        guard capacity < count else { return }
        base.deallocate()
        capacity = max(count, 2 * capacity)
        base = .allocate(capacity: capacity)
    }
}
