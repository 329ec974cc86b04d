import Foundation

/// The number and table formatting of the bench's text reports, and the one copy of the CLI's number text
/// (`Terminal.grouped` and `String(format1:)` call `grouped` and `oneDecimal`).
///
/// `padded` follows Foundation's `padding(toLength:withPad:startingAt:)` for the padding the reports use.
package enum ReportText {
    /// An integer with thousands separators: 234908 -> "234,908".
    /// - Complexity: O(digits).
    package static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return value < 0 ? "-" + out : out
    }

    /// A number with one decimal place, rounded half away from zero.
    /// - Complexity: O(1).
    package static func oneDecimal(_ value: Double) -> String {
        let scaled = (value * 10).rounded()
        return "\(Int(scaled) / 10).\(abs(Int(scaled)) % 10)"
    }

    /// `value` with `digits` decimals (printf's `%.Nf`).
    /// - Complexity: O(1).
    static func fixed(_ value: Double, _ digits: Int) -> String {
        String(format: "%.\(digits)f", value)
    }

    /// `text` padded with spaces on the right to `length` characters.
    /// - Complexity: O(length).
    static func padded(_ text: String, toLength length: Int) -> String {
        text.count >= length ? text : text + String(repeating: " ", count: length - text.count)
    }

    /// Lines of a table with columns padded to their widest cell, trailing spaces removed.
    /// - Complexity: O(cells).
    static func columns(_ table: [[String]], rightAligned: Set<Int>) -> [String] {
        let widths = (0..<(table.map(\.count).max() ?? 0)).map { column in
            table.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0
        }
        return table.map { cells in
            cells.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return rightAligned.contains(column) ? padding + cell : cell + padding
            }.joined(separator: "  ").replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
    }
}
