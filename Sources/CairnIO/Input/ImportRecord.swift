import CairnCore

/// What a reader yields for each input record: a valid feature, or the reason the record was refused.
public enum ImportRecord: Sendable {
    /// A valid feature read from `line` (1-based; the record's first line).
    case feature(Feature, line: Int)
    /// A refused record; the good records around it are unaffected.
    case rejected(RowRejection)
}
