import CairnIO

/// The input format of check-ins.
public enum CheckInInputFormat: String, CaseIterable, Sendable {
    /// A header row, then one check-in per line.
    case csv
    /// One JSON object per line.
    case jsonl

    /// The format of the check-ins at `path` by CairnIO's one format rule (`InputFormat.detect(fileAt:)`): CSV
    /// names (`.csv`, `.tsv`, `.txt`) are CSV, JSON lines (`.jsonl`, `.ndjson`, a `.json` whose first line is one
    /// object) are JSON lines, each optionally `.gz`. Standard input (`-`) and names that say no format are CSV,
    /// the check-ins' default (their header is then checked like any other).
    /// - Throws: `CheckInError` for GeoJSON (a FeatureCollection or a text sequence), which holds no check-ins.
    /// - Complexity: O(p) in the path's length, plus one read of at most 64 KiB for `.json`.
    public static func detect(fileAt path: String) throws(CheckInError) -> CheckInInputFormat {
        switch InputFormat.detect(fileAt: path) {
        case .csv, nil: return .csv
        case .jsonLines: return .jsonl
        case .geojson, .geojsonSeq:
            throw CheckInError("\(path): looks like GeoJSON; check-ins are read from CSV or JSON lines (one object per line); name the format with --input-format if the file is one of these")
        }
    }
}
