/// The verdict a generated check-in is built to get (ARCHITECTURE.md, "Check-in rule"): the raw value is the
/// reason code `checkins-expected.csv` holds. The generator's own list, not CairnCore's `CheckInReason`, so that
/// the expected verdicts do not come from the rule they check (and the draw order, hence the files, stays fixed).
public enum SyntheticVerdict: String, CaseIterable, Sendable {
    case valid, outside_radius, before_start, after_end, unknown_event, unknown_place, duplicate
    case invalid_coordinate, invalid_time, malformed_row

    /// The share of generated check-ins built to get each verdict; the rest are valid.
    public static let invalidShare = 0.02
}
