import CFuzzerDriver
#if canImport(Glibc)
import Glibc
#endif

/// Starts libFuzzer from a target's `main.swift`. SwiftPM gives every executable target its own `main` (the
/// module's top-level code), so the targets call libFuzzer's driver instead of using the `main` libFuzzer
/// would otherwise supply.
public enum FuzzDriver {
    /// The target the running executable fuzzes; set once by `main`, before libFuzzer starts.
    nonisolated(unsafe) static var target: (UnsafePointer<UInt8>?, Int) -> Void = { _, _ in }

    /// Runs libFuzzer with this process's arguments on `target` and exits with libFuzzer's exit code.
    public static func main(_ target: @escaping (UnsafePointer<UInt8>?, Int) -> Void) -> Never {
        self.target = target
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, testOneInput))
    }
}

/// libFuzzer's entry, under the name its runtime looks for (its own `main`, unused here, refers to it).
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzDriver.target(data, size)
    return 0
}
