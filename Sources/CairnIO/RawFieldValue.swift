/// One input value before it is typed: CSV gives text, JSON gives typed values.
public enum RawFieldValue: Hashable, Sendable {
    /// Text, typed by inference (see `AttributeValue.inferred(from:)`).
    case text(String)
    /// A JSON number.
    case number(Double)
    /// A JSON boolean.
    case bool(Bool)
    /// A JSON array of strings (a string set).
    case strings([String])
    /// A JSON null or an absent value.
    case null
    /// Any other JSON value (object, mixed array), kept as its JSON text.
    case json(String)
}

/// One field of an input record: its name as written, what it means, and its value.
public struct RawField: Sendable {
    /// The field name as written in the input.
    public var name: String
    /// What the name means after alias resolution.
    public var role: FieldRole
    /// The value.
    public var value: RawFieldValue

    /// Creates a field.
    public init(name: String, role: FieldRole, value: RawFieldValue) {
        self.name = name
        self.role = role
        self.value = value
    }
}
