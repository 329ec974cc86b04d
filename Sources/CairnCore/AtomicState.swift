import CCairnShims

/// A small integer shared between threads, read with acquire and written with release ordering: a thin wrapper
/// over C11-style atomics (the standard library's `Atomic` needs macOS 15; the package supports 14).
final class AtomicState: @unchecked Sendable {
    private let value: UnsafeMutablePointer<CInt>

    /// A state starting at `initial`.
    init(_ initial: CInt) {
        value = .allocate(capacity: 1)
        value.initialize(to: initial)
    }

    deinit { value.deallocate() }

    /// The current state (acquire).
    /// - Complexity: O(1).
    func load() -> CInt { cairn_atomic_load_acquire(value) }

    /// Sets the state (release).
    /// - Complexity: O(1).
    func store(_ new: CInt) { cairn_atomic_store_release(value, new) }

    /// Sets the state to `desired` if it is `expected`; whether it did.
    /// - Complexity: O(1).
    func compareExchange(expected: CInt, desired: CInt) -> Bool { cairn_atomic_compare_exchange(value, expected, desired) != 0 }

    /// Tells the processor the calling thread is spinning on this state.
    static func pause() { cairn_spin_pause() }
}
