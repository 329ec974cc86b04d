/// The whole check-in rule for one input row, reasons in this order:
/// 1. `malformed_row` when the row's reader could not read it (`readProblem`: a wrong number of fields, a quote
///    left open, a line that is not a JSON object), then when it has no check-in id, then no user id;
/// 2. then `CheckInValidator`'s order: `invalid_coordinate` (latitude, longitude, and with the lenient policy
///    the accuracy; NaN for text that is not a number), `invalid_time` (NaN seconds), `unknown_event`,
///    `unknown_place`, `place_mismatch` (or, naming neither an event nor a place, a containment match or
///    `no_match`), `outside_radius`, `before_start`, `after_end`, `not_joined`;
/// 3. `duplicate` last, by `CheckInLedger`, which needs the rows before it.
///
/// The row's text is read by its reader (CairnCheckIns' pipeline: CSV or JSON lines); what is left here is
/// the judgement on the values read.
public enum CheckInRowJudge {
    /// The verdict on a row whose ids were resolved with `CheckInValidator.resolve`; `malformed` carries the
    /// detail when the row itself is unusable, and `userHash` is the user id's hash for valid rows (0 otherwise).
    /// - Complexity: as `CheckInValidator.judge(_:)`.
    @inline(__always)
    package static func judge(
        readProblem: String?, id: UnsafeRawBufferPointer, user: UnsafeRawBufferPointer,
        latitude: Double, longitude: Double, seconds: Double, accuracyMeters: Double,
        target: CheckInValidator.Target, validator: CheckInValidator, scratch: inout [Int]
    ) -> (result: CheckInResult, userHash: UInt64, malformed: String?) {
        if let readProblem { return (CheckInResult(reason: .malformedRow), 0, readProblem) }
        if id.isEmpty { return (CheckInResult(reason: .malformedRow), 0, "missing check-in id") }
        if user.isEmpty { return (CheckInResult(reason: .malformedRow), 0, "missing user id") }
        let result = validator.judge(latitude: latitude, longitude: longitude, seconds: seconds, accuracyMeters: accuracyMeters,
                                     target: target, user: user, scratch: &scratch)
        return (result, result.reason == nil ? byteHash(user) : 0, nil)
    }
}
