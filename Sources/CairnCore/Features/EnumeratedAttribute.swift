/// An attribute whose value (or, for a set, every member) must be one of `allowed`.
public struct EnumeratedAttribute: Sendable {
    /// The permitted values, in the order they are listed in messages.
    public let allowed: [String]
    /// Whether the attribute is a string set (each member checked) rather than one string.
    public let isSet: Bool

    func check(name: String, value: AttributeValue) throws(FeatureError) {
        let expected = (isSet ? "a set of " : "one of ") + allowed.joined(separator: ", ")
        switch value {
        case .string(let s) where !isSet && allowed.contains(s): return
        case .string(let s) where isSet && allowed.contains(s): return
        case .stringSet(let members) where isSet && members.allSatisfy(allowed.contains): return
        default: throw .invalidAttribute(name: name, value: value.description, expected: expected)
        }
    }
}
