import Foundation

/// A system tool (`gzip`, `curl`) run to its end through `/usr/bin/env`, for tests that prepare or read files as a
/// user's tools would.
public enum SystemCommand {
    /// Runs `arguments` (the tool's name first) and returns its exit status and standard output.
    public static func run(_ arguments: [String]) throws -> (status: Int32, output: Data) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, data)
    }

    /// The standard output of `arguments` as text.
    public static func text(_ arguments: [String]) throws -> String {
        String(decoding: try run(arguments).output, as: UTF8.self)
    }
}
