/// A half-open interval of time `[start, end)`: an event's opening hours, or a sighting's instant (start == end).
public struct TimeWindow: Hashable, Sendable {
    /// The first instant inside the window.
    public let start: Timestamp
    /// The first instant after the window (equal to `start` for an instant).
    public let end: Timestamp

    /// Creates a window; `end` must not be before `start`.
    /// - Throws: `FeatureError.endBeforeStart`.
    /// - Complexity: O(1).
    public init(start: Timestamp, end: Timestamp) throws(FeatureError) {
        guard end >= start else { throw .endBeforeStart(start: start, end: end) }
        self.start = start
        self.end = end
    }

    /// A window holding one instant (a sighting's time).
    public init(instant: Timestamp) {
        start = instant
        end = instant
    }

    /// Whether `time` is in `[start, end)` (the check-in rule).
    /// - Complexity: O(1).
    public func contains(_ time: Timestamp) -> Bool { start <= time && time < end }
}
