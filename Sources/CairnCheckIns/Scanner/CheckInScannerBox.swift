import CairnCore
import CairnIO

/// A scanner and one piece's parsed rows, reused from batch to batch.
final class CheckInScannerBox: @unchecked Sendable {
    var scanner = CheckInCSVScanner()
    var rows: Any = ()
    /// The piece's skipped rows: line (from the piece's start) and why.
    var skips: [(line: Int, message: String)] = []
    var lines = 0
    deinit { scanner.deallocate() }
}
