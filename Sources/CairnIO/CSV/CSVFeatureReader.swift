import CairnCore

/// Reads features from a CSV file with a header row (RFC 4180), streaming, with flat memory for any file size.
///
/// The header's names are resolved once (aliases such as `lat`, `lng`, `rad`; `ImportOptions.idColumn`);
/// a header without latitude and longitude, with duplicate columns, or an empty file is an `InputError`.
/// Each row then becomes a feature through `FeatureRecordBuilder`, or a `RowRejection` naming its first line:
/// a wrong number of fields, invalid UTF-8 in a field, or any value the builder refuses. Empty lines are skipped.
/// Columns with an empty name are ignored.
/// A quoted field that runs over lines and then breaks the format (text after its closing quote, a field count
/// other than the header's, the end of the file inside it) is taken for a stray quote: one rejection at the line
/// where its record started, and reading resumes on the next line, so the rows it swallowed are read again
/// (`CSVTokenizer` states the rule). A record longer than `ImportOptions.maxRecordBytes` (64 MiB by default) is
/// rejected the same way, alone, and memory stays bounded by that limit.
/// A `.tsv` file (optionally `.tsv.gz`) is read with a tab separator.
///
/// Coordinate systems: with `ImportOptions.sourceCoordinateSystem` (`--s-srs`) the longitude and latitude columns
/// hold x and y in that system (a header with neither may name them `x` and `y`, or `easting` and `northing`); rows
/// are read ahead in batches of `transformBatchRows` and their positions transformed into WGS84 degrees in one PROJ
/// call per batch. Without it, a file whose first located row cannot be degrees (`CoordinateTransform
/// .cannotBeDegrees`) is refused once, as an `InputError` that asks for `--s-srs`, instead of row by row.
public final class CSVFeatureReader: FeatureReader {
    private let tokenizer: CSVTokenizer
    private let source: ByteSource
    private let builder: FeatureRecordBuilder
    private let file: String
    /// Header names as written (trimmed), one per column.
    private let names: [String]
    /// Resolved roles, one per column.
    private let roles: [FieldRole]
    /// Indices of the columns that carry a value (those with a non-empty name).
    private let usedColumns: [Int]
    /// The transform of positions into WGS84 degrees (`--s-srs`), nil for degrees.
    private let transform: CoordinateTransform?
    /// Records read ahead and transformed, handed out in order (with a transform only).
    private var pending: [ImportRecord] = []
    private var pendingIndex = 0
    /// Whether the first located row was checked for degrees (without a transform).
    private var degreesChecked = false
    /// Rows read ahead per PROJ call: big enough that a call's overhead is lost, small enough to hold.
    static let transformBatchRows = 1024

    /// See `FeatureReader.coordinateSystemNotes`.
    public let coordinateSystemNotes: [String]

    /// Opens a CSV reader on a byte source and reads its header.
    /// - Throws: `InputError` for an empty file, a header without latitude and longitude (or the id column named
    ///   in `options`), duplicate columns, or a read error.
    /// - Complexity: O(h) in the size of the header.
    public convenience init(source: ByteSource, options: ImportOptions) throws(InputError) {
        try self.init(source: source, options: options, chunkSize: 1 << 18, maxRecordBytes: options.maxRecordBytes)
    }

    /// Opens a CSV reader with a given chunk size (tests use tiny chunks to exercise records that straddle chunks)
    /// and record size limit.
    init(source: ByteSource, options: ImportOptions, chunkSize: Int, maxRecordBytes: Int = 64 << 20) throws(InputError) {
        var base = source.path.lowercased()
        if base.hasSuffix(".gz") { base.removeLast(3) }
        let separator: UInt8 = base.hasSuffix(".tsv") ? 0x09 : 0x2C
        self.source = source
        file = source.path
        tokenizer = CSVTokenizer(source: source, separator: separator, chunkSize: chunkSize, maxRecordBytes: maxRecordBytes)
        builder = FeatureRecordBuilder(file: source.path, options: options)

        // The header is the first non-empty record.
        var headerFound = false
        while try tokenizer.nextRecord() {
            if !Self.isBlank(tokenizer) { headerFound = true; break }
        }
        guard headerFound else {
            throw InputError(file: file, message: "the file is empty; expected a header row such as id,name,latitude,longitude")
        }
        let headerLine = tokenizer.recordLine
        switch tokenizer.problem {
        case nil:
            break
        case .unterminatedQuote?:
            throw InputError(file: file, line: headerLine, message: "unterminated quoted field in the header row")
        case .tooLong(let limit)?:
            throw InputError(file: file, line: headerLine, message: "the header row is longer than \(limit) bytes; is a quoted field left unterminated?")
        case .tooManyFields(let limit)?:
            throw InputError(file: file, line: headerLine, message: "the header row has more than \(limit) columns")
        case .textAfterQuote?, .fieldCount?:
            throw InputError(file: file, line: headerLine, message: "a quoted field in the header row runs past the end of its line and text follows its closing quote")
        }
        var names: [String] = []
        for index in 0..<tokenizer.fieldCount {
            guard let name = Self.decodeField(tokenizer, index) else {
                throw InputError(file: file, line: headerLine, message: "the header's column \(index + 1) is not valid UTF-8 text")
            }
            names.append(name.trimmed)
        }
        var roles = names.map { FieldRole.resolve($0, idColumn: options.idColumn) }
        if options.sourceCoordinateSystem != nil, !roles.contains(.latitude), !roles.contains(.longitude) {
            // Projected files name their axes x/y or easting/northing; read only with --s-srs, where no file that
            // imports today changes meaning.
            let lowered = names.map { $0.lowercased() }
            for (xName, yName) in [("x", "y"), ("easting", "northing")] {
                if let x = lowered.firstIndex(of: xName), let y = lowered.firstIndex(of: yName) {
                    roles[x] = .longitude
                    roles[y] = .latitude
                    break
                }
            }
        }
        let usedColumns = names.indices.filter { !names[$0].isEmpty }
        let headerList = names.map { "'\($0)'" }.joined(separator: ", ")

        var firstColumnByRole: [FieldRole: Int] = [:]
        for column in usedColumns {
            if let earlier = firstColumnByRole[roles[column]] {
                let what = names[earlier] == names[column]
                    ? "duplicate column name '\(names[column])' (columns \(earlier + 1) and \(column + 1))"
                    : "columns '\(names[earlier])' and '\(names[column])' both mean \(roles[column].name) (columns \(earlier + 1) and \(column + 1))"
                throw InputError(file: file, line: headerLine, message: "\(what); rename or remove one of them. The header has: \(headerList)")
            }
            firstColumnByRole[roles[column]] = column
        }
        let missing = builder.missingRequiredFields(in: usedColumns.map { roles[$0] })
        if !missing.isEmpty {
            let columns = missing.count == 1 ? "column" : "columns"
            throw InputError(file: file, line: headerLine,
                             message: "missing required \(columns) \(missing.joined(separator: ", ")); the header has: \(headerList)")
        }
        tokenizer.expectedFieldCount = names.count
        self.names = names
        self.roles = roles
        self.usedColumns = usedColumns
        if let system = options.sourceCoordinateSystem {
            let source = try SourceTransform(file: file, coordinateSystem: system, origin: "--s-srs")
            transform = source.transform
            coordinateSystemNotes = [source.note]
            degreesChecked = true
        } else {
            transform = nil
            coordinateSystemNotes = []
        }
    }

    /// The next feature or rejected row, or nil at the end of the file.
    /// - Throws: `InputError` when the file cannot be read further (I/O error, corrupt gzip).
    /// - Complexity: O(n) in the bytes of the row.
    public func next() throws(InputError) -> ImportRecord? {
        if transform != nil { return try nextTransformed() }
        while try tokenizer.nextRecord() {
            if Self.isBlank(tokenizer) { continue }
            let fields: [RawField]
            do throws(RowRejection) {
                fields = try self.fields()
            } catch {
                return .rejected(error)
            }
            if !degreesChecked { try checkDegrees(fields, line: tokenizer.recordLine) }
            return builder.build(fields, line: tokenizer.recordLine)
        }
        return nil
    }

    /// Refuses the file when its first located row cannot be degrees; a row without numbers in both position
    /// fields leaves the question to the next.
    private func checkDegrees(_ fields: [RawField], line: Int) throws(InputError) {
        guard let (x, y) = position(in: fields) else { return }
        degreesChecked = true
        if CoordinateTransform.cannotBeDegrees(x: x, y: y) {
            throw SourceTransform.projectedRefusal(file: file, x: x, y: y, line: line)
        }
    }

    /// The numbers in a record's longitude and latitude (or x and y) fields, when both are numbers.
    private func position(in fields: [RawField]) -> (x: Double, y: Double)? {
        var x: Double?, y: Double?
        for field in fields {
            guard case .text(let text) = field.value else { continue }
            if field.role == .longitude { x = DecimalText.parse(text.trimmed) } else if field.role == .latitude { y = DecimalText.parse(text.trimmed) }
        }
        guard let x, let y, x.isFinite, y.isFinite else { return nil }
        return (x, y)
    }

    /// The next record with a transform: from the batch read ahead, reading and transforming the next batch first
    /// when it is spent.
    private func nextTransformed() throws(InputError) -> ImportRecord? {
        if pendingIndex == pending.count {
            try readBatch()
            if pending.isEmpty { return nil }
        }
        defer { pendingIndex += 1 }
        return pending[pendingIndex]
    }

    /// Reads up to `transformBatchRows` records, transforms the positions of those that have one in one call,
    /// and builds their features (a record without numbers in both position fields goes to the builder as it is,
    /// which rejects it with the usual message or locates it by its place).
    private func readBatch() throws(InputError) {
        pending.removeAll(keepingCapacity: true)
        pendingIndex = 0
        var records: [(fields: Result<[RawField], RowRejection>, line: Int, slot: Int?)] = []
        var xs: [Double] = [], ys: [Double] = []
        while records.count < Self.transformBatchRows, try tokenizer.nextRecord() {
            if Self.isBlank(tokenizer) { continue }
            let parsed: Result<[RawField], RowRejection>
            do throws(RowRejection) {
                parsed = .success(try fields())
            } catch {
                parsed = .failure(error)
            }
            var slot: Int?
            if case .success(let values) = parsed, let (x, y) = position(in: values) {
                slot = xs.count
                xs.append(x)
                ys.append(y)
            }
            records.append((parsed, tokenizer.recordLine, slot))
        }
        let (sourceX, sourceY) = (xs, ys)
        transform?.transform(x: &xs, y: &ys)
        for record in records {
            switch (record.fields, record.slot) {
            case (.failure(let rejection), _):
                pending.append(.rejected(rejection))
            case (.success(let fields), nil):
                pending.append(builder.build(fields, line: record.line))
            case (.success(let fields), let slot?):
                guard xs[slot].isFinite, let location = try? Coordinate(latitude: ys[slot], longitude: xs[slot]) else {
                    pending.append(.rejected(RowRejection(file: file, line: record.line, field: "longitude",
                        reason: "position (x \(TextEscaping.jsonNumber(sourceX[slot])), y \(TextEscaping.jsonNumber(sourceY[slot]))) "
                            + "cannot be transformed from \(builder.options.sourceCoordinateSystem ?? "its system") into WGS84 degrees")))
                    continue
                }
                pending.append(builder.build(fields, line: record.line, location: location))
            }
        }
    }

    /// Bytes of the file on disk consumed so far (compressed bytes for `.gz`).
    /// - Complexity: O(1).
    public var bytesConsumed: Int64 { source.bytesConsumed }

    /// The size of the file on disk in bytes.
    /// - Complexity: O(1).
    public var fileSizeBytes: Int64 { source.fileSizeBytes }

    /// The tokenizer's current record as named fields, or its rejection.
    private func fields() throws(RowRejection) -> [RawField] {
        let line = tokenizer.recordLine
        if let problem = tokenizer.problem { throw rejection(problem, line: line) }
        let count = tokenizer.fieldCount
        guard count == names.count else {
            throw RowRejection(file: file, line: line, field: nil,
                               reason: "expected \(names.count) fields as in the header, found \(count)")
        }
        var fields: [RawField] = []
        fields.reserveCapacity(usedColumns.count)
        for column in usedColumns {
            guard let value = Self.decodeField(tokenizer, column) else {
                throw RowRejection(file: file, line: line, field: names[column],
                                   reason: "field '\(names[column])': not valid UTF-8 text")
            }
            fields.append(RawField(name: names[column], role: roles[column], value: .text(value)))
        }
        return fields
    }

    /// The rejection of a record the tokenizer could not read as one; reading resumes on `line` + 1.
    private func rejection(_ problem: CSVRecordProblem, line: Int) -> RowRejection {
        let resume = "taken for a stray quote: only this line is rejected and reading resumes on line \(line + 1)"
        func name(_ field: Int) -> String? { field < names.count ? names[field] : nil }
        switch problem {
        case .unterminatedQuote(let field):
            return RowRejection(file: file, line: line, field: name(field), reason: "unterminated quoted field starting on this line")
        case .textAfterQuote(let field, let at):
            return RowRejection(file: file, line: line, field: name(field),
                                reason: "a quoted field runs past the end of this line and text follows a closing quote on line \(at) (expected a separator or a line end); \(resume)")
        case .fieldCount(let field, let at, let count, let expected, let atLeast):
            return RowRejection(file: file, line: line, field: name(field),
                                reason: "a quoted field runs past the end of this line and the record has \(atLeast ? "more than \(expected)" : String(count)) fields by line \(at), expected \(expected) as in the header; \(resume)")
        case .tooLong(let limit):
            return RowRejection(file: file, line: line, field: nil,
                                reason: "the record starting on this line is longer than \(limit) bytes (the record size limit); is a quoted field left unterminated? Only this line is rejected and reading resumes on line \(line + 1)")
        case .tooManyFields(let limit):
            return RowRejection(file: file, line: line, field: nil,
                                reason: "the record starting on this line has more than \(limit) fields (the record size limit allows no more); only this line is rejected and reading resumes on line \(line + 1)")
        }
    }

    /// The text of field `index` of the tokenizer's current record, or nil when it is not valid UTF-8.
    private static func decodeField(_ tokenizer: CSVTokenizer, _ index: Int) -> String? {
        let bytes = tokenizer.field(index)
        if bytes.isEmpty { return "" }
        return decodeUTF8(bytes)
    }

    /// Whether the current record is an empty line (one unquoted field of spaces and tabs at most).
    private static func isBlank(_ tokenizer: CSVTokenizer) -> Bool {
        guard tokenizer.problem == nil, tokenizer.fieldCount == 1, !tokenizer.recordHasQuotes else { return false }
        return tokenizer.field(0).allSatisfy { $0 == 0x20 || $0 == 0x09 }
    }
}
