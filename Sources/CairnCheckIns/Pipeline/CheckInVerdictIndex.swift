import CairnCore

/// Every verdict as a small index: 0 is `valid`, 1... the reason codes in `CheckInReason.allCases` order. The
/// pipeline counts verdicts per ordinal, and the output keeps one pre-rendered text per ordinal.
public enum CheckInVerdictIndex {
    /// The verdict names by ordinal: `valid`, then the reason codes.
    public static let names: [String] = ["valid"] + CheckInReason.allCases.map(\.code)

    /// The ordinal of a reason (nil: valid).
    /// - Complexity: O(1).
    @inline(__always)
    public static func ordinal(_ reason: CheckInReason?) -> Int {
        guard let reason else { return 0 }
        switch reason {
        case .outsideRadius: return 1
        case .beforeStart: return 2
        case .afterEnd: return 3
        case .unknownEvent: return 4
        case .unknownPlace: return 5
        case .notJoined: return 6
        case .duplicate: return 7
        case .invalidCoordinate: return 8
        case .invalidTime: return 9
        case .malformedRow: return 10
        case .noMatch: return 11
        case .placeMismatch: return 12
        case .outsideArea: return 13
        }
    }
}
