import CairnCore

/// Opens a GeoJSON text sequence (RFC 8142) as a streaming reader.
/// - Throws: `InputError` when the file cannot be opened.
/// - Complexity: O(1) (reads the first chunk).
public func makeGeoJSONSeqReader(path: String, options: ImportOptions) throws(InputError) -> any FeatureReader {
    try GeoJSONSeqReader(path: path, options: options)
}

/// Streams GeoJSON text sequences: records that start with RS (0x1E) and end with LF, each one GeoJSON Feature.
///
/// Files without RS bytes (newline-delimited GeoJSON, often named `.geojsonl`) are read one Feature per line.
/// Blank records are skipped; a record that is not a valid Feature is rejected with its line and the rest continue.
final class GeoJSONSeqReader: FeatureReader {
    private let source: ByteSource
    private let splitter: DelimitedRecordSplitter
    private let decoder: GeoJSONFeatureDecoder

    /// Opens `path`; `chunkSize` is the read size in bytes (tests use tiny chunks to cross chunk boundaries).
    init(path: String, options: ImportOptions, chunkSize: Int = JSONByteCursor.defaultChunkSize) throws(InputError) {
        source = try ByteSource(path: path)
        splitter = try DelimitedRecordSplitter(cursor: JSONByteCursor(source: source, chunkSize: chunkSize))
        decoder = GeoJSONFeatureDecoder(builder: FeatureRecordBuilder(file: path, options: options))
    }

    var bytesConsumed: Int64 { source.bytesConsumed }
    var fileSizeBytes: Int64 { source.fileSizeBytes }

    func next() throws(InputError) -> ImportRecord? {
        while let record = try splitter.next() {
            if splitter.isBlank { continue }
            let line = splitter.contentLine(from: record)
            switch parseDelimitedRecord(splitter, record, line: line, file: source.path) {
            case .success(let value): return decoder.decodeFeature(value, line: line)
            case .failure(let rejection): return .rejected(rejection)
            }
        }
        return nil
    }
}
