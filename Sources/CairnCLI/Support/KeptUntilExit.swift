/// A value kept alive until the process exits, never freed: for a command's large, many-part structures
/// (`cairn checkins validate`'s validator, three arrays per park area) whose teardown, one buffer at a time on one
/// thread after the output is written, only delays the exit; the process's end returns the memory at once.
final class KeptUntilExit<Value> {
    private let value: Value

    private init(_ value: Value) { self.value = value }

    /// Keeps a copy of `value` (its buffers shared) until the process exits.
    /// - Complexity: O(1).
    static func keep(_ value: Value) {
        // One retain that is never released: the box and what it holds outlive every other reference.
        _ = Unmanaged.passRetained(KeptUntilExit(value))
    }
}
