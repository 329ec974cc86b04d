/// Why `CSVTokenizer` could not read a record as one: the record is rejected whole, at the line where it started,
/// and reading resumes on the line after that one (see `CSVTokenizer` for the rule).
enum CSVRecordProblem: Equatable, Sendable {
    /// The stream ends inside the quoted field at index `field` (0-based).
    case unterminatedQuote(field: Int)
    /// The quoted field at index `field` runs past the end of the record's first line, and text other than a
    /// separator or a line break follows a closing quote on line `line`.
    case textAfterQuote(field: Int, line: Int)
    /// The quoted field at index `field` runs past the end of the record's first line, and by line `line` the record
    /// has `count` fields where `expected` were due; `atLeast` when reading stopped as soon as there were too many.
    case fieldCount(field: Int, line: Int, count: Int, expected: Int, atLeast: Bool)
    /// The record is longer than `limitBytes` bytes.
    case tooLong(limitBytes: Int)
    /// The record has more than `limit` fields (their offsets count against the record size limit).
    case tooManyFields(limit: Int)
}
