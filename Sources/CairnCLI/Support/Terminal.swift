import CairnBench
import CairnIO
#if canImport(Glibc)
import Glibc
#endif

/// Small helpers for talking to the terminal.
enum Terminal {
    /// Whether standard error is a terminal (progress bars are drawn only then).
    static var standardErrorIsTerminal: Bool { isatty(2) == 1 }

    /// Writes a line to standard error, unbuffered. Warnings and notes quote input (file names, ids, values): their
    /// control characters are escaped (`\u{1B}`), line feeds kept.
    static func printError(_ text: String) {
        writeError(TextEscaping.escapingControlCharacters(text, keepingLineFeeds: true) + "\n")
    }

    /// Writes text to standard error as is, unbuffered.
    static func writeError(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            // write returns the bytes written, or -1 with errno set (EINTR: retry).
            let written = bytes.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return write(2, base + offset, raw.count - offset)
            }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// Formats an integer with thousands separators: 234908 -> "234,908" (the bench report's rule).
    static func grouped(_ value: Int) -> String { ReportText.grouped(value) }

    /// Formats a duration in the unit that suits it: "87.6 µs", "12.3 ms", "1.3 s".
    static func duration(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        if seconds < 1e-3 { return String(format1: seconds * 1e6) + " µs" }
        if seconds < 1 { return String(format1: seconds * 1e3) + " ms" }
        return String(format1: seconds) + " s"
    }

    /// Formats a byte count as B, KB, MB or GB (powers of 1000).
    static func bytes(_ count: Int64) -> String {
        let units = ["B", "KB", "MB", "GB", "TB"]
        var value = Double(count)
        var unit = 0
        while value >= 1000, unit < units.count - 1 { value /= 1000; unit += 1 }
        return unit == 0 ? "\(count) B" : String(format1: value) + " " + units[unit]
    }
}

extension String {
    /// A number with one decimal place, rounded half away from zero (the bench report's rule).
    init(format1 value: Double) {
        self = ReportText.oneDecimal(value)
    }
}
