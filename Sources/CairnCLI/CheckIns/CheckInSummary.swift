import CairnCheckIns
import CairnIO
import Foundation

/// The summary written to standard error after a run.
struct CheckInSummary {
    let rows: Int
    let counts: [Int]
    var placeCount = 0
    var eventCount = 0
    var skippedReferenceRows = 0
    var skippedMessages: [String] = []
    var malformedMessages: [String] = []
    var loadSeconds = 0.0
    var validateSeconds = 0.0
    var pairCount = 0
    var ledgerBytes = 0
    var workers = 1

    var valid: Int { counts.first ?? 0 }
    var invalid: Int { rows - valid }

    var text: String {
        var lines: [String] = []
        let total = loadSeconds + validateSeconds
        let rate = total > 0 ? Int(Double(rows) / total) : 0
        lines.append("checkins: \(Terminal.grouped(rows)) rows in \(String(format: "%.2f", total)) s (\(Terminal.grouped(rate)) rows/s end to end; loading \(Terminal.grouped(placeCount)) places and \(Terminal.grouped(eventCount)) events took \(String(format: "%.2f", loadSeconds)) s, validating \(String(format: "%.2f", validateSeconds)) s on \(workers) threads)")
        func row(_ name: String, _ count: Int) -> String {
            let share = rows > 0 ? String(format: "%6.2f %%", 100 * Double(count) / Double(rows)) : ""
            return "  \(name.padding(toLength: 20, withPad: " ", startingAt: 0))\(Terminal.grouped(count).leftPadded(14))  \(share)"
        }
        lines.append(row("valid", valid))
        lines.append(row("invalid", invalid))
        for (ordinal, name) in CheckInVerdictIndex.names.enumerated().dropFirst() where counts[ordinal] > 0 {
            lines.append(row("  " + name, counts[ordinal]))
        }
        lines.append("  duplicate state: \(Terminal.grouped(pairCount)) (user, event) pairs, \(Terminal.bytes(Int64(ledgerBytes)))")
        // Messages quote the input: control characters in them are escaped, not sent to the terminal.
        for message in malformedMessages { lines.append("  malformed: \(TextEscaping.escapingControlCharacters(message))") }
        if (counts.count > 10 ? counts[10] : 0) > malformedMessages.count {
            lines.append("  (\(Terminal.grouped(counts[10] - malformedMessages.count)) more malformed rows)")
        }
        if skippedReferenceRows > 0 || !skippedMessages.isEmpty {
            lines.append("  reference rows skipped: \(Terminal.grouped(skippedReferenceRows))")
            for message in skippedMessages { lines.append("    \(TextEscaping.escapingControlCharacters(message))") }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
