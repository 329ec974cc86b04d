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
