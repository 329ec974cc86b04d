import CZlib
import SystemPackage

/// A buffered writer to standard output, standard error or a file, for large outputs without a syscall per line.
///
/// A file whose name ends in `.gz` is written gzip-compressed, so that `--out results.geojson.gz` holds what its
/// name says. A write that fails (a full disk, a closed pipe) stops further writes; `close()` reports it.
public final class OutputSink: ByteSink {
    private let descriptor: FileDescriptor
    private let ownsDescriptor: Bool
    /// zlib's stream for a `.gz` file, nil for plain output.
    private let gzip: GzipWriter?
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

    /// The sink of an `--out` option: the file when a path is given (gzip for `.gz`), else standard output.
    /// - Throws: `InputError` when the file cannot be created.
    /// - Complexity: O(1).
    public static func forOption(_ path: String?) throws(InputError) -> OutputSink {
        guard let path else { return standardOutput() }
        return try OutputSink(path: path)
    }

    private init(descriptor: FileDescriptor, name: String) {
        self.descriptor = descriptor
        self.name = name
        ownsDescriptor = false
        gzip = nil
        buffer.reserveCapacity(capacity)
    }

    /// Creates or truncates a file for writing; a name ending in `.gz` (any case) is written gzip-compressed.
    /// - Throws: `InputError` naming the path and the system's reason.
    /// - Complexity: O(1).
    public init(path: String) throws(InputError) {
        let opened: FileDescriptor
        do {
            opened = try FileDescriptor.open(FilePath(path), .writeOnly, options: [.create, .truncate],
                                             permissions: [.ownerReadWrite, .groupRead, .otherRead])
        } catch {
            throw InputError(file: path, message: "cannot write: \(error)")
        }
        if path.lowercased().hasSuffix(".gz") {
            guard let writer = GzipWriter(descriptor: opened) else {
                try? opened.close()
                throw InputError(file: path, message: "cannot write: zlib could not start a gzip stream")
            }
            gzip = writer
        } else {
            gzip = nil
        }
        descriptor = opened
        ownsDescriptor = true
        name = path
        buffer.reserveCapacity(capacity)
    }

    deinit {
        if !closed { try? close() }
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
        if let gzip {
            let path = name
            failure = buffer.withUnsafeBytes { bytes -> InputError? in
                do throws(InputError) { try gzip.write(bytes, path: path) } catch { return error }
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

    /// Flushes, ends the gzip stream and closes a file this sink opened.
    /// - Throws: `InputError` for the first write that failed.
    /// - Complexity: O(n) in the bytes buffered.
    public func close() throws(InputError) {
        guard !closed else { return }
        closed = true
        flush()
        if let gzip, failure == nil {
            do throws(InputError) { try gzip.finish(path: name) } catch { failure = error }
        }
        if ownsDescriptor {
            do {
                try descriptor.close()
            } catch {
                if failure == nil { failure = InputError(file: name, message: "cannot write: \(error)") }
            }
        }
        if let failure { throw failure }
    }
}
