#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value behind a mutex (pthread's, the thinnest lock on both platforms). Held only to read or swap a
/// reference, never across a query.
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    init(_ value: Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, holding the lock.
    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }

    /// Replaces the value with `update(value)`; returns the value replaced, for the caller to release after the
    /// lock is let go (the last reference to a large structure frees it, which must not hold up the lock's other
    /// users), and the new one.
    /// - Complexity: `update`.
    func replace(_ update: (Value) throws -> Value) rethrows -> (old: Value, new: Value) {
        try withLock { value in
            let old = value
            value = try update(value)
            return (old, value)
        }
    }
}
