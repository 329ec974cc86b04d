import CairnCore

extension String {
    /// The string without leading and trailing spaces, tabs, CR and LF (and a UTF-8 byte order mark).
    var trimmingSpaces: String {
        var scalars = Substring(self).unicodeScalars
        while let first = scalars.first, first == " " || first == "\t" || first == "\r" || first == "\n" || first == "\u{FEFF}" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" || last == "\r" || last == "\n" { scalars.removeLast() }
        return String(scalars)
    }
}
