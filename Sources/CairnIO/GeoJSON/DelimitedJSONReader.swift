import CairnCore

/// Opens a GeoJSON text sequence (RFC 8142) as a streaming reader.
/// - Throws: `InputError` when the file cannot be opened.
/// - Complexity: O(1) (reads the first chunk).
public func makeGeoJSONSeqReader(path: String, options: ImportOptions) throws(InputError) -> any FeatureReader {
    try DelimitedJSONReader(path: path, options: options, records: .geoJSONFeatures)
}

/// Opens a JSON lines file (`.jsonl`, `.ndjson`) as a streaming reader.
/// - Throws: `InputError` when the file cannot be opened.
/// - Complexity: O(1) (reads the first chunk).
public func makeJSONLinesReader(path: String, options: ImportOptions) throws(InputError) -> any FeatureReader {
    try DelimitedJSONReader(path: path, options: options, records: .featuresOrFlatRecords)
}

/// Streams files of one JSON value per record: GeoJSON text sequences and JSON lines.
///
/// Records start with RS (0x1E, RFC 8142 / RFC 7464) or are separated by newlines; blank records are skipped; a
/// record that is not valid is rejected with its line number and the rest continue.
final class DelimitedJSONReader: FeatureReader {
    /// What each record may be.
    enum Records {
        /// GeoJSON text sequences: every record is a GeoJSON Feature.
        case geoJSONFeatures
        /// JSON lines: a GeoJSON Feature (`"type": "Feature"`) or a flat record whose members are the fields
        /// (`{"id": "a", "lat": 60.17, "lon": 24.94, "name": "Esplanadi"}`).
        case featuresOrFlatRecords
    }

    private let source: ByteSource
    private let splitter: DelimitedRecordSplitter
    private var decoder: GeoJSONFeatureDecoder
    private let records: Records
    /// See `FeatureReader.coordinateSystemNotes`.
    let coordinateSystemNotes: [String]

    /// Opens `path`; `chunkSize` is the read size in bytes (tests use tiny chunks to cross chunk boundaries).
    init(path: String, options: ImportOptions, records: Records, chunkSize: Int = JSONByteCursor.defaultChunkSize) throws(InputError) {
        source = try ByteSource(path: path)
        splitter = try DelimitedRecordSplitter(cursor: JSONByteCursor(source: source, chunkSize: chunkSize),
                                              maxRecordBytes: options.maxRecordBytes)
        decoder = GeoJSONFeatureDecoder(builder: FeatureRecordBuilder(file: path, options: options))
        self.records = records
        if let system = options.sourceCoordinateSystem {
            let source = try SourceTransform(file: path, coordinateSystem: system, origin: "--s-srs")
            decoder.transform = source.transform.map { (transform: $0, system: system) }
            coordinateSystemNotes = [source.note]
        } else {
            coordinateSystemNotes = []
        }
    }

    var bytesConsumed: Int64 { source.bytesConsumed }
    var fileSizeBytes: Int64 { source.fileSizeBytes }

    func next() throws(InputError) -> ImportRecord? {
        while let record = try splitter.next() {
            if splitter.isBlank { continue }
            let line = splitter.contentLine(from: record)
            let value: JSONValue
            switch parseDelimitedRecord(splitter, record, line: line, file: source.path) {
            case .success(let parsed): value = parsed
            case .failure(let rejection): return .rejected(rejection)
            }
            guard records == .featuresOrFlatRecords else { return decoder.decodeFeature(value, line: line) }
            guard case .object(let members) = value else {
                return .rejected(RowRejection(file: source.path, line: line, field: nil,
                                              reason: "expected a JSON object, got \(value.kindPhrase)"))
            }
            switch value["type"] {
            case .string("Feature")?:
                return decoder.decodeFeature(value, line: line)
            case .string("FeatureCollection")?:
                return .rejected(RowRejection(file: source.path, line: line, field: "type",
                                              reason: "a FeatureCollection is not a JSON lines record; read the file as .geojson"))
            default:
                return decoder.decodeFlatRecord(members, line: line)
            }
        }
        return nil
    }
}
