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
    /// Whether the header's names were read as they stand, none changed by trimming (spaces, a byte order mark),
    /// so that a reader that trims otherwise (`CSVFeatureReader`) reads the same names.
    var headerIsPlain = false
}
