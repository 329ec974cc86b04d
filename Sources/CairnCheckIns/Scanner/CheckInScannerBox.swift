import CairnCore
import CairnIO

/// A scanner and one piece's parsed rows, reused from batch to batch.
final class CheckInScannerBox: @unchecked Sendable {
    var scanner = CheckInCSVScanner()
    var rows: Any = ()
    var lineOffsets: [Int] = []
    var lines = 0
    deinit { scanner.deallocate() }
}
