#if canImport(Glibc)
import Glibc
#endif

/// A buffered writer to standard output, standard error or a file, for large outputs without a syscall per line.
public final class OutputSink {
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private var buffer: [UInt8] = []
    private let capacity = 1 << 16
    /// The path or `-` for standard output, for messages.
    public let name: String

    /// Standard output.
    public static func standardOutput() -> OutputSink { OutputSink(descriptor: 1, name: "-") }
    /// Standard error.
    public static func standardError() -> OutputSink { OutputSink(descriptor: 2, name: "<stderr>") }

    private init(descriptor: Int32, name: String) {
        self.descriptor = descriptor
        self.name = name
        ownsDescriptor = false
        buffer.reserveCapacity(capacity)
    }

    /// Creates or truncates a file for writing.
    /// - Throws: `InputError` naming the path and the system's reason.
    public init(path: String) throws(InputError) {
        // open returns -1 and sets errno on failure.
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw InputError(file: path, message: "cannot write: \(String(cString: strerror(errno)))") }
        descriptor = fd
        ownsDescriptor = true
        name = path
        buffer.reserveCapacity(capacity)
    }

    deinit {
        flush()
        if ownsDescriptor { close(descriptor) }
    }

    /// Appends text.
    /// - Complexity: amortised O(n) in the text's length.
    public func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= capacity { flush() }
    }

    /// Appends raw bytes.
    public func write(bytes: some Collection<UInt8>) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= capacity { flush() }
    }

    /// Writes out what is buffered.
    public func flush() {
        var offset = 0
        buffer.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            while offset < raw.count {
                // write returns the bytes written, or -1 with errno (EINTR: retry).
                let n = Glibc.write(descriptor, base + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    break
                }
                offset += n
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
