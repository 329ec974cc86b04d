/// The caller's write function, handed to the writer thread (`run` waits for every write before returning),
/// and the output's header, which goes out with the first rows (or at the end of a run without rows): a run
/// refused for its input's header writes nothing.
final class CheckInWriteBox: @unchecked Sendable {
    private let body: ([UInt8]) -> Void
    /// The header not yet written (empty once written, or for a format without one).
    private var header: [UInt8]

    init(_ body: @escaping ([UInt8]) -> Void, header: [UInt8]) {
        self.body = body
        self.header = header
    }

    /// Writes `bytes`, after the header if it has not gone out yet.
    func write(_ bytes: [UInt8]) {
        finish()
        body(bytes)
    }

    /// Writes the header if it has not gone out yet (a run that completed without rows).
    func finish() {
        guard !header.isEmpty else { return }
        body(header)
        header = []
    }
}
