import CairnCore

/// A streaming reader of features from one input file: records come one at a time, in file order.
public protocol FeatureReader: AnyObject {
    /// The next record, or nil at the end of the file.
    /// - Throws: `InputError` when the file as a whole cannot be read further (I/O error, corrupt gzip).
    func next() throws(InputError) -> ImportRecord?
    /// Bytes of the file on disk consumed so far (for progress).
    var bytesConsumed: Int64 { get }
    /// The size of the file on disk in bytes.
    var fileSizeBytes: Int64 { get }
}

/// The input formats Cairn reads; each may be gzip-compressed (`.gz`).
public enum InputFormat: String, CaseIterable, Sendable {
    /// RFC 4180 CSV with a header row.
    case csv
    /// A GeoJSON FeatureCollection (`.geojson`, `.json`).
    case geojson
    /// GeoJSON text sequences, RFC 8142 (`.geojsons`, `.geojsonseq`): one Feature per record after an RS byte.
    case geojsonSeq = "geojsonseq"
    /// JSON lines (`.jsonl`, `.ndjson`): one object per line, a GeoJSON Feature or a flat record with lat/lon fields.
    case jsonLines = "jsonl"

    /// The format implied by a file name's extension (ignoring a final `.gz`), or nil when unknown.
    /// - Complexity: O(n) in the length of the path.
    public static func detect(path: String) -> InputFormat? {
        var name = path.lowercased()
        if name.hasSuffix(".gz") { name.removeLast(3) }
        guard let dot = name.lastIndex(of: ".") else { return nil }
        switch name[name.index(after: dot)...] {
        case "csv", "tsv", "txt": return .csv
        case "geojson", "json": return .geojson
        case "geojsons", "geojsonseq", "geojsonl": return .geojsonSeq
        case "jsonl", "ndjson": return .jsonLines
        default: return nil
        }
    }
}
