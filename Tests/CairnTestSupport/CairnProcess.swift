import Foundation

/// A built executable of the package (`cairn` by default, `cairn-server` in the server's package) run as a child
/// process, for tests that need two processes at once (two writers of a store, a query during an import, a server).
/// Output is collected as it comes; every wait is bounded.
public final class CairnProcess: @unchecked Sendable {
    /// An executable that cannot be found next to the test bundle.
    public struct NotBuilt: Error, CustomStringConvertible {
        let name: String
        let searched: [String]
        public var description: String {
            "the \(name) executable was not found next to the tests (looked in \(searched.joined(separator: ", "))); build it with `swift build`"
        }
    }

    /// A wait that ran out.
    public struct TimedOut: Error, CustomStringConvertible {
        public let what: String
        public init(what: String) { self.what = what }
        public var description: String { "timed out waiting for \(what)" }
    }

    /// The executable `name` built with the tests: SwiftPM puts it in the same folder as the test bundle.
    public static func executable(_ name: String = "cairn") throws -> URL {
        var folders: [URL] = []
        let bundle = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        for start in [bundle, Bundle.main.bundleURL] + Bundle.allBundles.map(\.bundleURL) {
            var folder = start.deletingLastPathComponent()
            for _ in 0..<4 {
                folders.append(folder)
                folder = folder.deletingLastPathComponent()
            }
        }
        for folder in folders {
            let candidate = folder.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw NotBuilt(name: name, searched: Array(Set(folders.map(\.path))).sorted())
    }

    private let process = Process()
    private let input = Pipe()
    private let lock = NSLock()
    private var standardOutputBytes = Data()
    private var standardErrorBytes = Data()
    private let outputDone = DispatchGroup()

    /// Starts `executable arguments...` in `folder`, its standard input a pipe that `write(_:)` feeds, with this
    /// process's environment and `environment` on top.
    public init(_ arguments: [String], in folder: String, executable: String = "cairn", environment: [String: String] = [:]) throws {
        // A child that exits early must fail the test with EPIPE on `write`, not kill the test process.
        signal(SIGPIPE, SIG_IGN)
        process.executableURL = try Self.executable(executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        process.standardInput = input
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        collect(output.fileHandleForReading) { self.standardOutputBytes.append($0) }
        collect(error.fileHandleForReading) { self.standardErrorBytes.append($0) }
        try process.run()
    }

    /// Runs `cairn arguments...` to the end with no input and returns its exit status, stdout and stderr.
    public static func run(_ arguments: [String], in folder: String, timeoutSeconds: Double = 120) throws
        -> (status: Int32, output: String, error: String)
    {
        let process = try CairnProcess(arguments, in: folder)
        try process.closeInput()
        let status = try process.waitForExit(timeoutSeconds: timeoutSeconds)
        return (status, process.standardOutput, process.standardError)
    }

    private func collect(_ handle: FileHandle, _ append: @escaping @Sendable (Data) -> Void) {
        outputDone.enter()
        Thread.detachNewThread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                lock.withLock { append(chunk) }
            }
            outputDone.leave()
        }
    }

    /// What the process wrote on stdout so far.
    public var standardOutput: String { lock.withLock { String(decoding: standardOutputBytes, as: UTF8.self) } }
    /// What the process wrote on stderr so far.
    public var standardError: String { lock.withLock { String(decoding: standardErrorBytes, as: UTF8.self) } }
    /// The process's id (to read its memory in /proc, say).
    public var processIdentifier: Int32 { process.processIdentifier }
    /// Whether the process is still running.
    public var isRunning: Bool { process.isRunning }

    /// Sends `signal` (SIGTERM, SIGINT) to the process.
    public func send(signal number: Int32) {
        kill(process.processIdentifier, number)
    }

    /// Writes `text` to the process's standard input.
    public func write(_ text: String) throws {
        try input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
    }

    /// Closes the process's standard input (end of file).
    public func closeInput() throws {
        try input.fileHandleForWriting.close()
    }

    /// Waits until stderr contains `text`.
    public func waitForStandardError(containing text: String, timeoutSeconds: Double = 60) throws {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while !standardError.contains(text) {
            if !process.isRunning {
                // Let the last output arrive, then decide.
                _ = outputDone.wait(timeout: .now() + 5)
                if standardError.contains(text) { return }
                throw TimedOut(what: "'\(text)' on the stderr of cairn \(process.arguments ?? []): it exited (stderr: \(standardError))")
            }
            guard Date() < deadline else {
                throw TimedOut(what: "'\(text)' on the stderr of cairn \(process.arguments ?? []) (stderr so far: \(standardError))")
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    /// Waits for the process to exit and for its output, and returns its exit status; kills it when the time runs out.
    public func waitForExit(timeoutSeconds: Double = 120) throws -> Int32 {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while process.isRunning {
            guard Date() < deadline else {
                process.terminate()
                throw TimedOut(what: "cairn \(process.arguments ?? []) to exit (stderr so far: \(standardError))")
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        _ = outputDone.wait(timeout: .now() + 10)
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { process.terminate() }
    }
}
