import CairnCore
import CairnIO

/// The rows of a reference CSV file, parsed in parallel, in file order.
struct ParsedReferenceRows<Rows: ReferenceRowList> {
    var rows = Rows()
    var skipped: [String] = []
    var skippedCount = 0
    /// The header's column names (trimmed), once read; nil for a file without one.
    var header: [String]?
    var layoutFound = false
}
