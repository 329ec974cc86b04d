import SystemPackage

/// A buffered writer to standard output, standard error or a file, for large outputs without a syscall per line.
///
/// A file is written under a temporary name in its folder and renamed into place by `close()` (see `OutputFile`):
/// a run that fails before `close()`, or a sink dropped without it, leaves any file at the path as it was.
/// A file whose name ends in `.gz` is written gzip-compressed, so that `--out results.geojson.gz` holds what its
/// name says. A write that fails (a full disk, a closed pipe) stops further writes; `close()` reports it.
public final class OutputSink: ByteSink {
    private let descriptor: FileDescriptor
    /// The file being written, nil for standard output and standard error.
    private let file: OutputFile?
    private var buffer: [UInt8] = []
    private let capacity = 1 << 16
    private var failure: InputError?
    private var closed = false
    /// The path or `-` for standard output, for messages.
    public let name: String

    /// Standard output.
    /// - Complexity: O(1).
    public static func standardOutput() -> OutputSink { OutputSink(descriptor: .standardOutput, name: "-") }
    /// Standard error.
    /// - Complexity: O(1).
    public static func standardError() -> OutputSink { OutputSink(descriptor: .standardError, name: "<stderr>") }

    /// The sink of an `--out` option: the file when a path is given (gzip for `.gz`), else (nil or `-`) standard
    /// output.
    /// - Throws: `InputError` when the file cannot be created.
    /// - Complexity: O(1).
    public static func forOption(_ path: String?) throws(InputError) -> OutputSink {
        guard let path, path != "-" else { return standardOutput() }
        return try OutputSink(path: path)
    }

    private init(descriptor: FileDescriptor, name: String) {
        self.descriptor = descriptor
        self.name = name
        file = nil
        buffer.reserveCapacity(capacity)
    }

    /// Starts a file for writing, under a temporary name until `close()`; a name ending in `.gz` (any case) is
    /// written gzip-compressed.
    /// - Throws: `InputError` naming the path and the system's reason.
    /// - Complexity: O(1).
    public init(path: String) throws(InputError) {
        let opened = try OutputFile(path: path)
        file = opened
        descriptor = .standardOutput // unused: writes go to `file`
        name = path
        buffer.reserveCapacity(capacity)
    }

    deinit {
        guard !closed else { return }
        // A file never closed belongs to a run that failed: it is not put in place. A stream gets what was buffered.
        if let file { file.discard() } else { flush() }
    }

    /// Appends text.
    /// - Complexity: amortised O(n) in the text's length.
    public func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= capacity { flush() }
    }

    /// Appends raw bytes.
    /// - Complexity: amortised O(n).
    public func write(bytes: some Collection<UInt8>) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= capacity { flush() }
    }

    /// Appends raw bytes.
    /// - Complexity: amortised O(n).
    public func write(bytes: UnsafeRawBufferPointer) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= capacity { flush() }
    }

    /// Writes out what is buffered (compressing it for `.gz`). After a failed write, later writes are dropped and
    /// `close()` throws.
    /// - Complexity: O(n) in the bytes buffered.
    public func flush() {
        defer { buffer.removeAll(keepingCapacity: true) }
        guard failure == nil, !buffer.isEmpty else { return }
        if let file {
            failure = buffer.withUnsafeBytes { bytes -> InputError? in
                do throws(InputError) { try file.write(bytes) } catch { return error }
                return nil
            }
        } else {
            do {
                _ = try descriptor.writeAll(buffer)
            } catch {
                failure = InputError(file: name, message: "cannot write: \(error)")
            }
        }
    }

    /// Flushes and, for a file, ends the gzip stream and renames the file into place.
    /// - Throws: `InputError` for the first write that failed; the file at the path is then left as it was.
    /// - Complexity: O(n) in the bytes buffered.
    public func close() throws(InputError) {
        guard !closed else { return }
        closed = true
        flush()
        if let file {
            if failure == nil {
                do throws(InputError) { try file.commit() } catch { failure = error }
            } else {
                file.discard()
            }
        }
        if let failure { throw failure }
    }
}
