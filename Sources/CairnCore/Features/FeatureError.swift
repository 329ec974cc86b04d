/// Why a feature was refused; each case names the field.
public enum FeatureError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The id is empty.
    case emptyId
    /// The radius is zero, negative, NaN or infinite.
    case invalidRadius(Double)
    /// An event or sighting came without its time.
    case missingTime(kind: FeatureKind)
    /// The end time is before the start time.
    case endBeforeStart(start: Timestamp, end: Timestamp)
    /// An attribute has a value outside its allowed list or type.
    case invalidAttribute(name: String, value: String, expected: String)

    public var description: String {
        switch self {
        case .emptyId: "field 'id': must not be empty"
        case .invalidRadius(let r): "field 'radius': expected a distance > 0 in metres, got \(formatNumber(r))"
        case .missingTime(let kind):
            kind == .event ? "fields 'startTime' and 'endTime': an event needs both" : "field 'time': a \(kind.rawValue) needs a time"
        case .endBeforeStart(let start, let end): "field 'endTime': \(end) is before startTime \(start)"
        case .invalidAttribute(let name, let value, let expected): "field '\(name)': expected \(expected), got '\(value)'"
        }
    }
}
