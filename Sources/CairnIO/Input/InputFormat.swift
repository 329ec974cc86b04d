/// The input formats Cairn reads; each may be gzip-compressed (`.gz`).
///
/// The one format rule of every front end (`cairn import`, `cairn cluster --input`, check-ins): by the extension,
/// ignoring a final `.gz`; a `.json` file is told by its first line (`detect(path:leadingBytes:)`).
public enum InputFormat: String, CaseIterable, Sendable {
    /// RFC 4180 CSV with a header row (`.csv`, `.tsv`, `.txt`).
    case csv
    /// A GeoJSON FeatureCollection (`.geojson`; `.json` unless its first line is a JSON lines record).
    case geojson
    /// GeoJSON text sequences, RFC 8142 (`.geojsons`, `.geojsonseq`, `.geojsonl`): one Feature per record after an RS byte.
    case geojsonSeq = "geojsonseq"
    /// JSON lines (`.jsonl`, `.ndjson`; `.json` whose first line is one whole object other than a FeatureCollection):
    /// one object per line, a GeoJSON Feature or a flat record with lat/lon fields.
    case jsonLines = "jsonl"

    /// The format implied by a file name's extension (ignoring a final `.gz`), or nil when unknown. `.json` gives
    /// `geojson` here; `detect(path:leadingBytes:)` tells the two JSON shapes apart by content.
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

    /// The format by name, with `.json` decided by the file's first bytes (decompressed): JSON lines when its first
    /// line is one complete JSON object that is not a FeatureCollection (`{"id":"a","lat":60.1,...}`), else a
    /// GeoJSON document (a FeatureCollection, pretty-printed or on one line).
    /// - Complexity: O(p + b) in the path's length and the bytes given (a few KiB are enough).
    public static func detect(path: String, leadingBytes: [UInt8]) -> InputFormat? {
        guard let byName = detect(path: path) else { return nil }
        var name = path.lowercased()
        if name.hasSuffix(".gz") { name.removeLast(3) }
        guard byName == .geojson, name.hasSuffix(".json") else { return byName }
        var start = 0
        if leadingBytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        while start < leadingBytes.count, [0x20, 0x09, 0x0D, 0x0A].contains(leadingBytes[start]) { start += 1 }
        guard start < leadingBytes.count, leadingBytes[start] == UInt8(ascii: "{"),
              let newline = leadingBytes[start...].firstIndex(of: 0x0A) else { return .geojson }
        guard let line = try? JSONParser.parse(Array(leadingBytes[start..<newline])), case .object = line else { return .geojson }
        if case .string("FeatureCollection")? = line["type"] { return .geojson }
        return .jsonLines
    }

    /// The format of the file at `path`: by name, and for `.json` by its first line (the first 64 KiB are read).
    /// nil when the name says nothing; a `.json` file that cannot be read is taken as GeoJSON (opening it again
    /// then reports the problem).
    /// - Complexity: O(p) in the path's length, plus one read of at most 64 KiB for `.json`.
    public static func detect(fileAt path: String) -> InputFormat? {
        guard let byName = detect(path: path) else { return nil }
        guard byName == .geojson, path != ByteSource.standardInputPath, let source = try? ByteSource(path: path) else { return byName }
        var bytes = [UInt8](repeating: 0, count: 1 << 16)
        var filled = 0
        while filled < bytes.count {
            let read = bytes.withUnsafeMutableBytes { buffer in
                (try? source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))) ?? 0
            }
            if read == 0 { break }
            filled += read
        }
        return detect(path: path, leadingBytes: Array(bytes[..<filled]))
    }
}
