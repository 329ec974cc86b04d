/// The output of `cairn checkins validate`: one row per check-in, in input order.
public enum CheckInOutputFormat: String, CaseIterable, Sendable {
    /// `checkin_id,verdict,reason,distance_m,radius_m,place_id,event_id` with a header.
    case csv
    /// One JSON object per line with the same members.
    case jsonl

    /// The CSV output's header row.
    public static let csvHeader = "checkin_id,verdict,reason,distance_m,radius_m,place_id,event_id\n"
}
