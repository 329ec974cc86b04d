import CairnCore

/// What a reader yields for each input record: a valid feature, or the reason the record was refused.
public enum ImportRecord: Sendable {
    /// A valid feature read from `line` (1-based; the record's first line).
    case feature(Feature, line: Int)
    /// A refused record; the good records around it are unaffected.
    case rejected(RowRejection)
}

/// A record that cannot become a feature: where it is and what is wrong.
public struct RowRejection: Error, Hashable, Sendable, CustomStringConvertible {
    /// The input file as named by the user.
    public let file: String
    /// The 1-based line where the record starts.
    public let line: Int
    /// The field at fault (canonical or input name), when one field is.
    public let field: String?
    /// What is wrong and what was expected, e.g. `latitude 95 is out of range [-90, 90]`.
    public let reason: String

    /// Creates a rejection.
    public init(file: String, line: Int, field: String?, reason: String) {
        self.file = file
        self.line = line
        self.field = field
        self.reason = reason
    }

    /// `FILE:LINE: reason`, the form compilers use, so editors can jump to the line.
    public var description: String { "\(file):\(line): \(reason)" }
}

/// A failure that stops reading a whole file (unreadable, not the expected format, missing required columns).
public struct InputError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The input file as named by the user.
    public let file: String
    /// The 1-based line, when the failure is at a place in the file.
    public let line: Int?
    /// What went wrong and what to do about it.
    public let message: String

    /// Creates an input error.
    public init(file: String, line: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String {
        if let line { return "\(file):\(line): \(message)" }
        return "\(file): \(message)"
    }
}

/// How input records become features.
public struct ImportOptions: Sendable {
    /// When set, every record gets this kind (a `kind` field in the record is ignored).
    /// When nil, a record's `kind` field decides, and records without one are places.
    public var kind: FeatureKind?
    /// The field holding the id (default `id`). Without such a field the id is `FILENAME:LINE`.
    public var idColumn: String?
    /// The radius given to records without one, in metres (`--radius 150m`).
    public var defaultRadiusMeters: Double?
    /// Finds a place by id, for records that name a `placeId` but give no coordinates (events at places):
    /// such a record takes the place's location, and its radius when it has none of its own.
    public var placeLookup: (@Sendable (String) -> Feature?)?

    /// Creates options; the defaults read kinds from the data and ids from an `id` field.
    public init(kind: FeatureKind? = nil, idColumn: String? = nil, defaultRadiusMeters: Double? = nil,
                placeLookup: (@Sendable (String) -> Feature?)? = nil) {
        self.kind = kind
        self.idColumn = idColumn
        self.defaultRadiusMeters = defaultRadiusMeters
        self.placeLookup = placeLookup
    }
}
