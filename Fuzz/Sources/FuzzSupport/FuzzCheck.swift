#if canImport(Glibc)
import Glibc
#endif

/// How a target reports a broken invariant: a message on standard error, then `abort()`, which libFuzzer
/// treats as a crash (it writes the input as `crash-<sha1>` and stops).
public enum FuzzCheck {
    /// Prints `message` and aborts.
    public static func fail(_ message: String) -> Never {
        let text = Array("cairn-fuzz: invariant broken: \(message)\n".utf8)
        // write to standard error (2) returns the bytes written or -1; nothing to do about either before abort.
        _ = text.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
        abort()
    }

    /// Fails with `message()` unless `condition` holds.
    @inline(__always)
    public static func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fail(message()) }
    }
}
