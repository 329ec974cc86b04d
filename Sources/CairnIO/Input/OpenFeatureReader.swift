/// Opens a streaming feature reader for a file, choosing the reader by format.
///
/// - Parameters:
///   - path: the file to read, `-` for standard input; gzip is decompressed transparently.
///   - format: the input format, or nil to detect it from the file name (and a `.json` file's first line: `InputFormat.detect(fileAt:)`).
///   - options: how records become features (kind, id column, default radius).
/// - Throws: `InputError` when the format is unknown or unsupported, the file cannot be opened,
///   or its header is unusable.
/// - Complexity: O(h) in the size of the file's header.
public func openFeatureReader(path: String, format: InputFormat? = nil, options: ImportOptions) throws(InputError) -> any FeatureReader {
    if path == ByteSource.standardInputPath, format == nil {
        throw InputError(file: path, message: "standard input has no name to tell its format by; name the format (csv, geojson, geojsonseq, jsonl)")
    }
    guard let format = format ?? InputFormat.detect(fileAt: path) else {
        throw InputError(file: path, message: "cannot tell the format from the file name; expected .csv, .tsv, .geojson, .json, .geojsons, .geojsonseq, .jsonl or .ndjson (optionally followed by .gz), or name the format")
    }
    switch format {
    case .csv:
        return try CSVFeatureReader(source: ByteSource(path: path), options: options)
    case .geojson:
        return try makeGeoJSONReader(path: path, options: options)
    case .geojsonSeq:
        return try makeGeoJSONSeqReader(path: path, options: options)
    case .jsonLines:
        return try makeJSONLinesReader(path: path, options: options)
    }
}
