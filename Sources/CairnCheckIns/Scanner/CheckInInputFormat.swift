/// The input format of check-ins.
public enum CheckInInputFormat: String, CaseIterable, Sendable {
    /// A header row, then one check-in per line.
    case csv
    /// One JSON object per line.
    case jsonl

    /// `.jsonl`, `.ndjson` and `.json` (optionally `.gz`) are JSON lines; everything else is CSV.
    /// - Complexity: O(n) in the path's length.
    public static func detect(path: String) -> CheckInInputFormat {
        var name = path.lowercased()
        if name.hasSuffix(".gz") { name.removeLast(3) }
        return name.hasSuffix(".jsonl") || name.hasSuffix(".ndjson") || name.hasSuffix(".json") ? .jsonl : .csv
    }
}
