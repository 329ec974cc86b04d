import CairnCore
import CairnStore

/// Ids that one import run gives again (the later row wins, as on a re-import): those a later row of the same file
/// repeats, counted with the first few examples for one warning per file, and those a later file repeats, for one
/// warning at the end of the run.
///
/// The store tells which upsert replaced a row of this run (`FeatureStoreWriter.upsert(_:written:)`), so no id is
/// held here. A row stored before the run that two files replace is told by a bit per stored rowid (one bitset for
/// the run, one for the current file), allocated only when a re-import replaces stored rows. To name where the earlier
/// row came from, each row the run first writes leaves its rowid and line in a `RowPlaceLog` (kept in a scratch file
/// next to the store, so its memory is one piece whatever the row count), and each file the rowid its inserts start
/// at and where its rows start in that log.
struct RunDuplicateIds {
    /// Examples named in the warning.
    static let exampleLimit = 3

    /// Rows whose id an earlier file of the run had given.
    private(set) var count = 0
    /// Rows of the current file whose id an earlier row of the same file had given, and the first few of them.
    private var fileCount = 0
    private var fileExamples: [(id: String, line: Int, earlierRowid: Int64)] = []
    /// The files of the run, each with the first rowid it could have inserted and where its rows start in
    /// `places`.
    private var files: [(firstRowid: Int64, offset: Int, name: String)] = []
    /// A later row and the rowid of the earlier one it replaced.
    private var examples: [(id: String, file: String, line: Int, earlierRowid: Int64)] = []
    /// Where each row first written by the run came from.
    private(set) var places: RowPlaceLog
    /// The largest rowid inserted so far.
    private var lastInsertedRowid: Int64 = 0
    /// Stored rows (there before the run) replaced by the run, and those of them the current file replaced first:
    /// a bit per rowid.
    private var storedRowsReplaced = RowidBits(), storedRowsReplacedByFile = RowidBits()

    /// Repeats of an import into the store at `storePath` (where the row places' scratch file goes).
    init(storePath: String, placePieceBytes: Int = RowPlaceLog.defaultPieceBytes) {
        places = RowPlaceLog(storePath: storePath, pieceBytes: placePieceBytes)
    }

    /// Starts the rows of `file`.
    /// - Complexity: O(1), or O(r / 64) after r stored rows were replaced.
    mutating func beginFile(_ file: String) {
        files.append((firstRowid: lastInsertedRowid + 1, offset: places.byteCount, name: file))
        storedRowsReplacedByFile.removeAll()
        fileCount = 0
        fileExamples.removeAll()
    }

    /// Upserts `batch` (read from `lines` of the current file) through `writer`, noting rows an earlier file gave.
    /// - Complexity: as the upsert, plus O(1) a row.
    /// A struct, changed through `inout`: a class's stored properties cost a dynamic exclusivity check per access.
    mutating func upsert(_ batch: EncodedFeatureBatch, lines: [Int], writer: FeatureStoreWriter) throws {
        let fileStart = files.last?.firstRowid ?? 1
        try writer.upsert(batch) { position, row in
            switch row.change {
            case .inserted:
                lastInsertedRowid = row.rowid
                record(row.rowid, line: lines[position])
            case .replacedRowOfThisTransaction where row.rowid < fileStart:
                note(batch.id(at: position), line: lines[position], earlierRowid: row.rowid)
            case .replacedRowOfThisTransaction:
                noteInFile(batch.id(at: position), line: lines[position], earlierRowid: row.rowid)
            case .replacedStoredRow:
                let firstInRun = storedRowsReplaced.insert(row.rowid), firstInFile = storedRowsReplacedByFile.insert(row.rowid)
                if firstInRun {
                    record(row.rowid, line: lines[position])
                } else if firstInFile {
                    note(batch.id(at: position), line: lines[position], earlierRowid: row.rowid)
                } else {
                    noteInFile(batch.id(at: position), line: lines[position], earlierRowid: row.rowid)
                }
            }
        }
    }

    private mutating func record(_ rowid: Int64, line: Int) {
        places.append(rowid: rowid, line: line)
    }

    private mutating func note(_ id: String, line: Int, earlierRowid: Int64) {
        count += 1
        if examples.count < Self.exampleLimit, let file = files.last?.name {
            examples.append((id, file, line, earlierRowid))
        }
    }

    private mutating func noteInFile(_ id: String, line: Int, earlierRowid: Int64) {
        fileCount += 1
        if fileExamples.count < Self.exampleLimit { fileExamples.append((id, line, earlierRowid)) }
    }

    /// Ends the current file: how many of its rows repeated an id an earlier row of it had given, and the warning
    /// naming the first few (nil when none did).
    /// - Complexity: O(r) in the rows the run wrote when the file had repeats (their first places are read back).
    mutating func endFile() -> (repeats: Int, warning: String?) {
        guard fileCount > 0, let file = files.last?.name else { return (0, nil) }
        let places = earlierPlaces(Set(fileExamples.map(\.earlierRowid)))
        let shown = fileExamples.map { example in
            let earlier = places[example.earlierRowid].map { $0.file == file ? "line \($0.line)" : "\($0.file):\($0.line)" }
            return "'\(example.id)' at line \(example.line) (first at \(earlier ?? "an earlier row"))"
        }
        let rows = fileCount == 1 ? "1 row" : "\(fileCount) rows"
        let warning = "\(file): \(rows) gave an id that an earlier row of the file had given; the later row wins: "
            + shown.joined(separator: ", ") + (fileCount > shown.count ? ", …" : "")
        defer { fileCount = 0; fileExamples.removeAll() }
        return (fileCount, warning)
    }

    /// The run's one warning, nil when no id came again from a later file.
    /// - Complexity: O(r) in the rows the run inserted (their places are read back once).
    var warning: String? {
        guard count > 0 else { return nil }
        let places = earlierPlaces(Set(examples.map(\.earlierRowid)))
        let shown = examples.map { example in
            let earlier = places[example.earlierRowid].map { "\($0.file):\($0.line)" } ?? "an earlier file"
            return "'\(example.id)' at \(example.file):\(example.line) (first at \(earlier))"
        }
        let more = count > shown.count ? ", …" : ""
        return "\(count == 1 ? "1 row" : "\(count) rows") gave an id that an earlier file of this run had given; the later row wins: "
            + shown.joined(separator: ", ") + more
    }

    /// The file and line where the run first wrote each of the `wanted` rows.
    private func earlierPlaces(_ wanted: Set<Int64>) -> [Int64: (file: String, line: Int)] {
        var found: [Int64: (file: String, line: Int)] = [:]
        guard !wanted.isEmpty else { return found }
        places.forEach { start, rowid, line in
            if wanted.contains(rowid), found[rowid] == nil, let file = files.last(where: { $0.offset <= start }) {
                found[rowid] = (file.name, line)
            }
            return found.count < wanted.count
        }
        return found
    }
}
