#if canImport(Glibc)
import Glibc
#endif

/// Small helpers for talking to the terminal.
enum Terminal {
    /// Whether standard error is a terminal (progress bars are drawn only then).
    static var standardErrorIsTerminal: Bool { isatty(2) == 1 }

    /// Writes a line to standard error, unbuffered.
    static func printError(_ text: String) {
        var line = text
        line += "\n"
        writeError(line)
    }

    /// Writes text to standard error (file descriptor 2) unbuffered.
    static func writeError(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                // write returns the bytes written, or -1 with errno (EINTR: retry).
                let n = write(2, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 { if errno == EINTR { continue } else { break } }
                offset += n
            }
        }
    }

    /// Formats an integer with thousands separators: 234908 -> "234,908".
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return value < 0 ? "-" + out : out
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
    /// A number with one decimal place.
    init(format1 value: Double) {
        let scaled = (value * 10).rounded()
        self = "\(Int(scaled) / 10).\(abs(Int(scaled)) % 10)"
    }
}
