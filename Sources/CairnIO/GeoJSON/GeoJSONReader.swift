import CairnCore

/// Opens a GeoJSON file (a FeatureCollection, or one bare Feature) as a streaming reader.
/// - Throws: `InputError` when the file cannot be opened, is empty, or does not start with a JSON object.
/// - Complexity: O(1) (reads the first chunk).
public func makeGeoJSONReader(path: String, options: ImportOptions) throws(InputError) -> any FeatureReader {
    try GeoJSONReader(path: path, options: options)
}

/// Streams the features of a GeoJSON FeatureCollection with flat memory.
///
/// The file is scanned chunk by chunk; the top-level object's members are read one by one, and inside the
/// `"features"` array each element is cut out into its own buffer (`JSONValueCutter`) and parsed alone, so memory
/// holds one chunk and one feature whatever the file size. A feature's line is the line of its opening `{`.
///
/// - A malformed feature becomes a `RowRejection`; reading continues after it. A run of stray commas between
///   features is one rejection at its first comma, with the count.
/// - A feature longer than `ImportOptions.maxRecordBytes` is rejected unparsed, and only its first
///   `maxRecordBytes` bytes are ever held, so memory stays about the limit whatever the feature.
/// - The end of the file inside the array yields the complete features, then a rejection at the incomplete one.
/// - Other top-level members (`bbox`, `name`, ...) are skipped. A `"type"` other than `FeatureCollection`
///   is an `InputError` (reported where it is met, so after the features when it comes after them); a missing
///   `"type"` is tolerated when there is a `"features"` array. A file whose type is `Feature` is read as one feature.
/// - Coordinate systems: `--s-srs` (`ImportOptions.sourceCoordinateSystem`) names the system of every position;
///   without it, the legacy top-level `crs` member does (`GeoJSONCRSMember`), read where it stands when it comes
///   before the features, or read ahead (`GeoJSONCRSMember.scan`) when the first feature's position cannot be
///   degrees. A file whose first position cannot be degrees and that names no system is refused once, with an
///   `InputError` that asks for `--s-srs`. `--s-srs` overrides a `crs` member (a note says so).
/// - Structure errors outside the features (a missing `,` between features, text after the object) stop the file
///   with an `InputError` carrying the line and column.
final class GeoJSONReader: FeatureReader {
    private enum Phase {
        case members(first: Bool)
        case features(first: Bool)
        /// Inside the features array where a feature must start (after `[` or a `,`).
        case featureStart
        case trailer
        case done
    }

    private let source: ByteSource
    private let cursor: JSONByteCursor
    private var decoder: GeoJSONFeatureDecoder
    /// `--s-srs`, which overrides the file's `crs` member.
    private let forcedSystem: String?
    /// Whether the positions' system is settled: by `--s-srs`, a `crs` member, or a first position in degrees.
    private var systemSettled = false
    /// Whether the `crs` member was met (where it stands, or read ahead).
    private var crsMemberAdopted = false
    /// See `FeatureReader.coordinateSystemNotes`.
    private(set) var coordinateSystemNotes: [String] = []
    private var cutter: JSONValueCutter
    private var phase = Phase.members(first: true)
    private var buffer: [UInt8] = []
    private var sawFeatures = false
    private var declaredType: String?
    private var bareFeatureMembers: [JSONMember] = []
    /// The bytes of a bare Feature's members so far, to hold a bare Feature to the record size limit too.
    private var bareFeatureBytes = 0
    /// The top-level keys read so far that give the file its meaning.
    private var seenKeys: Set<String> = []
    private let objectLine: Int
    /// How many elements of the `"features"` array have been met: the 1-based number of the current feature, counted
    /// as a reader of the file counts them (rejected ones too; stray commas are not elements).
    private var featureNumber = 0

    /// Opens `path`; `chunkSize` is the read size in bytes (tests use tiny chunks to cross chunk boundaries).
    init(path: String, options: ImportOptions, chunkSize: Int = JSONByteCursor.defaultChunkSize) throws(InputError) {
        source = try ByteSource(path: path)
        cursor = JSONByteCursor(source: source, chunkSize: chunkSize)
        decoder = GeoJSONFeatureDecoder(builder: FeatureRecordBuilder(file: path, options: options))
        cutter = JSONValueCutter(maxBytes: options.maxRecordBytes)
        forcedSystem = options.sourceCoordinateSystem
        if let system = options.sourceCoordinateSystem {
            let source = try SourceTransform(file: path, coordinateSystem: system, origin: "--s-srs")
            decoder.transform = source.transform.map { (transform: $0, system: system) }
            coordinateSystemNotes = [source.note]
            systemSettled = true
        }
        try cursor.skipByteOrderMark()
        guard let first = try cursor.skipWhitespace() else {
            throw InputError(file: path, message: "the file is empty (expected a GeoJSON FeatureCollection)")
        }
        guard first == UInt8(ascii: "{") else {
            let what = first == UInt8(ascii: "[") ? "a JSON array" : describeJSONByte(first)
            throw InputError(file: path, line: cursor.line,
                             message: "not a GeoJSON FeatureCollection: expected '{' at column \(cursor.column), got \(what)")
        }
        objectLine = cursor.line
        cursor.position += 1
    }

    var bytesConsumed: Int64 { source.bytesConsumed }
    var fileSizeBytes: Int64 { source.fileSizeBytes }

    private func structureError(_ message: String) -> InputError {
        InputError(file: source.path, line: cursor.line, message: "\(message) (column \(cursor.column))")
    }

    private func truncatedError(_ place: String) -> InputError {
        InputError(file: source.path, line: cursor.line, message: "unexpected end of file \(place) (is the file truncated?)")
    }

    func next() throws(InputError) -> ImportRecord? {
        while true {
            switch phase {
            case .done:
                return nil
            case .members(let first):
                guard var byte = try cursor.skipWhitespace() else { throw truncatedError("inside the top-level object") }
                if byte == UInt8(ascii: "}") {
                    cursor.position += 1
                    phase = .trailer
                    continue
                }
                if !first {
                    guard byte == UInt8(ascii: ",") else {
                        throw structureError("expected ',' or '}' between top-level members, got \(describeJSONByte(byte))")
                    }
                    cursor.position += 1
                    guard let after = try cursor.skipWhitespace() else { throw truncatedError("inside the top-level object") }
                    byte = after
                }
                try readMember(startingWith: byte)
            case .features(let first):
                guard let byte = try cursor.skipWhitespace() else {
                    phase = .done
                    return .rejected(RowRejection(file: source.path, line: cursor.line, field: nil,
                                                  reason: "unexpected end of file inside the \"features\" array (is the file truncated?)"))
                }
                if byte == UInt8(ascii: "]") && first {
                    cursor.position += 1
                    phase = .members(first: false)
                    continue
                }
                if !first {
                    if byte == UInt8(ascii: "]") {
                        cursor.position += 1
                        phase = .members(first: false)
                        continue
                    }
                    guard byte == UInt8(ascii: ",") else {
                        throw structureError("expected ',' or ']' after a feature, got \(describeJSONByte(byte))")
                    }
                    cursor.position += 1
                }
                phase = .featureStart
            case .featureStart:
                guard let byte = try cursor.skipWhitespace() else {
                    phase = .done
                    return .rejected(RowRejection(file: source.path, line: cursor.line, field: nil,
                                                  reason: "unexpected end of file inside the \"features\" array (is the file truncated?)"))
                }
                if byte == UInt8(ascii: "]") { throw structureError("trailing ',' before ']' in the \"features\" array") }
                if byte == UInt8(ascii: ",") { return try strayCommas() }
                let line = cursor.line, column = cursor.column
                featureNumber += 1
                let number = featureNumber
                releaseBuffer()
                let outcome = try cutter.cut(from: cursor, into: &buffer)
                phase = .features(first: false)
                switch outcome {
                case .complete:
                    return try decodeBuffer(line: line, column: column, featureNumber: number)
                case .endOfFile:
                    phase = .done
                    return .rejected(RowRejection(file: source.path, line: line, field: nil,
                                                  reason: "unexpected end of file inside a feature (is the file truncated?)"))
                case .tooLong(let length):
                    return .rejected(RowRejection(file: source.path, line: line, field: nil,
                                                  reason: oversizedRecordReason(length: length, limit: cutter.maxBytes)))
                }
            case .trailer:
                if let byte = try cursor.skipWhitespace() {
                    throw structureError("unexpected \(describeJSONByte(byte)) after the end of the GeoJSON object")
                }
                phase = .done
                if !sawFeatures {
                    if declaredType == "Feature" {
                        if bareFeatureBytes > cutter.maxBytes {
                            return .rejected(RowRejection(file: source.path, line: objectLine, field: nil,
                                                          reason: oversizedRecordReason(length: bareFeatureBytes, limit: cutter.maxBytes)))
                        }
                        return decoder.decodeFeature(.object(bareFeatureMembers), line: objectLine)
                    }
                    throw InputError(file: source.path, line: objectLine,
                                     message: "not a GeoJSON FeatureCollection: no \"features\" array")
                }
                return nil
            }
        }
    }

    /// Empties the value buffer, giving back the memory of a big value (above 1 MiB) rather than holding it.
    private func releaseBuffer() {
        if buffer.capacity > 1 << 20 { buffer = [] } else { buffer.removeAll(keepingCapacity: true) }
    }

    /// Consumes a run of stray commas in the features array (whitespace between them included) and rejects the run
    /// once, at its first comma: 100 KB of commas are one message, not 100,000.
    private func strayCommas() throws(InputError) -> ImportRecord {
        let line = cursor.line, column = cursor.column
        var count = 0, lastLine = line
        while try cursor.skipWhitespace() == UInt8(ascii: ",") {
            lastLine = cursor.line
            cursor.position += 1
            count += 1
        }
        let run = count == 1 ? "a stray ','" : "\(count) stray ',' in a row" + (lastLine > line ? " (to line \(lastLine))" : "")
        return .rejected(RowRejection(file: source.path, line: line, field: nil,
                                      reason: "\(run) at column \(column) of the \"features\" array, expected a feature"))
    }

    private func decodeBuffer(line: Int, column: Int, featureNumber: Int) throws(InputError) -> ImportRecord {
        let value: JSONValue
        do throws(JSONSyntaxError) {
            value = try JSONParser.parse(buffer, firstLine: line, firstColumn: column)
        } catch {
            return .rejected(RowRejection(file: source.path, line: line, field: nil, reason: error.description))
        }
        if !systemSettled, let position = GeoJSONPositions.first(in: value["geometry"] ?? .null) {
            systemSettled = true
            if CoordinateTransform.cannotBeDegrees(x: position.x, y: position.y) {
                // The crs member may follow the features (as in files that list it last): read ahead for it.
                guard source.path != ByteSource.standardInputPath, let member = try GeoJSONCRSMember.scan(path: source.path) else {
                    throw SourceTransform.projectedRefusal(file: source.path, x: position.x, y: position.y, line: line)
                }
                systemSettled = false
                try adoptCRSMember(member, line: line, needed: true)
            }
        }
        return decoder.decodeFeature(value, line: line, column: column, featureNumber: featureNumber)
    }

    /// Takes the system a top-level `crs` member names, unless `--s-srs` overrides it, it was taken already (read
    /// ahead), or features before it were read as degrees.
    /// A member that is null or names no usable system is an error only when it is `needed` (positions that
    /// cannot be degrees): files with `"crs": null`, or an odd member beside degrees, read as they always did.
    private func adoptCRSMember(_ member: JSONValue, line: Int, needed: Bool = false) throws(InputError) {
        if crsMemberAdopted { return }
        let system: String
        switch GeoJSONCRSMember.coordinateSystem(of: member) {
        case .success(let name): system = name
        case .failure(let reason):
            guard needed, forcedSystem == nil else { return } // --s-srs says what the member cannot
            throw InputError(file: source.path, line: line, message: reason.message)
        }
        crsMemberAdopted = true
        if let forcedSystem {
            coordinateSystemNotes.append("\(source.path): --s-srs \(forcedSystem) overrides the file's crs member (\(system))")
            return
        }
        if systemSettled {
            // Features came first and their positions were degrees: they stay so.
            if !CoordinateTransform.namesWGS84Degrees(system) {
                coordinateSystemNotes.append("\(source.path): the crs member (\(system)) follows features whose positions are degrees; they were read as WGS84 degrees")
            }
            return
        }
        let adopted = try SourceTransform(file: source.path, coordinateSystem: system, origin: "the file's crs member")
        decoder.transform = adopted.transform.map { (transform: $0, system: system) }
        coordinateSystemNotes.append(adopted.note)
        systemSettled = true
    }

    /// Reads one top-level member `"key": value` starting at its key.
    private func readMember(startingWith byte: UInt8) throws(InputError) {
        guard byte == UInt8(ascii: "\"") else {
            throw structureError("expected a member name in double quotes, got \(describeJSONByte(byte))")
        }
        let keyLine = cursor.line, keyColumn = cursor.column
        releaseBuffer()
        switch try cutter.cut(from: cursor, into: &buffer) {
        case .complete: break
        case .endOfFile: throw truncatedError("inside the top-level object")
        case .tooLong(let length):
            throw InputError(file: source.path, line: keyLine, message: "a top-level member name of \(length) bytes, over the record size limit")
        }
        let parsedKey: JSONValue
        do throws(JSONSyntaxError) {
            parsedKey = try JSONParser.parse(buffer, firstLine: keyLine, firstColumn: keyColumn)
        } catch {
            throw InputError(file: source.path, line: error.line, message: error.description)
        }
        guard case .string(let key) = parsedKey else { throw structureError("expected a member name") }
        // The parser refuses a repeated key inside a value; the members that give the file its meaning follow the
        // same rule here (skipped members such as `bbox` or `name` mean nothing to the import).
        if ["type", "features", "id", "geometry", "properties"].contains(key), !seenKeys.insert(key).inserted {
            throw InputError(file: source.path, line: keyLine,
                             message: "duplicate top-level key \"\(key)\" (a repeated name is refused: readers disagree on its meaning)")
        }
        guard let colon = try cursor.skipWhitespace() else { throw truncatedError("inside the top-level object") }
        guard colon == UInt8(ascii: ":") else { throw structureError("expected ':' after \"\(key)\", got \(describeJSONByte(colon))") }
        cursor.position += 1
        guard let valueStart = try cursor.skipWhitespace() else { throw truncatedError("inside the top-level object") }
        phase = .members(first: false)

        if key == "features" {
            guard valueStart == UInt8(ascii: "[") else {
                throw structureError("\"features\" must be an array, got \(describeJSONByte(valueStart))")
            }
            cursor.position += 1
            sawFeatures = true
            phase = .features(first: true)
            return
        }
        let valueLine = cursor.line, valueColumn = cursor.column
        releaseBuffer()
        let outcome = try cutter.cut(from: cursor, into: &buffer)
        let relevant = ["type", "id", "geometry", "properties"]
        switch outcome {
        case .complete: break
        case .endOfFile: throw truncatedError("inside the top-level object")
        case .tooLong(let length):
            if key == "type" {
                throw InputError(file: source.path, line: valueLine, message: "not a GeoJSON FeatureCollection: \"type\" is \(length) bytes long")
            }
            // Only a bare Feature's members make a record: one over the limit is rejected whole at the object's end.
            if relevant.contains(key) { bareFeatureBytes += length }
            return
        }
        if key == "crs" {
            let member: JSONValue
            do throws(JSONSyntaxError) {
                member = try JSONParser.parse(buffer, firstLine: valueLine, firstColumn: valueColumn)
            } catch {
                throw InputError(file: source.path, line: error.line, message: "in the top-level \"crs\": \(error.description)")
            }
            return try adoptCRSMember(member, line: valueLine)
        }
        guard relevant.contains(key) else { return } // bbox, name, ...: skipped unparsed
        bareFeatureBytes += buffer.count
        if key != "type" && bareFeatureBytes > cutter.maxBytes { return } // rejected at the end, not parsed
        let value: JSONValue
        do throws(JSONSyntaxError) {
            value = try JSONParser.parse(buffer, firstLine: valueLine, firstColumn: valueColumn)
        } catch {
            throw InputError(file: source.path, line: error.line, message: "in the top-level \"\(key)\": \(error.description)")
        }
        if key == "type" {
            guard case .string(let type) = value, type == "FeatureCollection" || (type == "Feature" && !sawFeatures) else {
                let got = if case .string(let type) = value { "'\(type)'" } else { value.kindPhrase }
                throw InputError(file: source.path, line: valueLine,
                                 message: "not a GeoJSON FeatureCollection: \"type\" is \(got)")
            }
            declaredType = type
        }
        if declaredType != "FeatureCollection" && !sawFeatures {
            // A number keeps its text as written (JSON numbers hold no whitespace), as the parser does for members.
            let numberText: String? = if case .number = value { String(decoding: buffer, as: UTF8.self).filter { !$0.isWhitespace } } else { nil }
            bareFeatureMembers.append(JSONMember(key: key, value: value, numberText: numberText))
        }
    }
}
