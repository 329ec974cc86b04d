import CairnCore

extension CheckInValidator {
    /// Messages about rows dropped while building (repeated ids, joins to unknown events).
    /// - Complexity: O(1).
    public var ignoredMessages: [String] {
        var messages: [String] = []
        if ignoredPlaces > 0 { messages.append("\(ignoredPlaces) places with an id already taken (the first kept)") }
        if ignoredEvents > 0 { messages.append("\(ignoredEvents) events with an id already taken (the first kept)") }
        if ignoredJoins > 0 { messages.append("\(ignoredJoins) joins naming an unknown event") }
        return messages
    }
}
