/// Splitting CSV text in tests, by RFC 4180's quoting: what a reader of the output would see.
public enum CSVText {
    /// Records of CSV text (a line feed inside quotes does not end one), without their line feeds.
    public static func records(_ text: String) -> [String] {
        var records: [String] = []
        var current = ""
        var quoted = false
        for character in text {
            if character == "\"" { quoted.toggle() }
            if character == "\n", !quoted {
                records.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { records.append(current) }
        return records
    }
}
