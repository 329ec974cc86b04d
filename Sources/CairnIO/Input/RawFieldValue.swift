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
