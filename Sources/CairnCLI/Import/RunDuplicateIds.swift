import CairnCore
import CairnStore

/// Ids that a later file of one import run gives again (the later row wins, as on a re-import): counted, with the
/// first few examples, for one warning at the end of the run.
///
/// The store tells which upsert replaced a row of this run (`FeatureStoreWriter.upsert(_:written:)`), so no id is
/// held here. To name where the earlier row came from, each row the run inserted leaves its rowid and line, as two
/// variable-length deltas (usually two bytes a row), and each file the rowid its rows start at.
final class RunDuplicateIds {
    /// Examples named in the warning.
    static let exampleLimit = 3

    /// Rows whose id an earlier file of the run had given.
    private(set) var count = 0
    /// The files of the run, each with the first rowid it could have inserted.
    private var files: [(firstRowid: Int64, name: String)] = []
    /// A later row and the rowid of the earlier one it replaced.
    private var examples: [(id: String, file: String, line: Int, earlierRowid: Int64)] = []
    /// Per inserted row: rowid minus the previous one, then its line minus the previous one (zigzag), as LEB128.
    private var insertedRows: [UInt8] = []
    private var lastRowid: Int64 = 0
    private var lastLine = 0

    /// Starts the rows of `file`.
    /// - Complexity: O(1).
    func beginFile(_ file: String) {
        files.append((firstRowid: lastRowid + 1, name: file))
    }

    /// Upserts `batch` (read from `lines` of the current file) through `writer`, noting rows an earlier file gave.
    /// - Complexity: as the upsert, plus O(1) a row.
    func upsert(_ batch: [Feature], lines: [Int], writer: FeatureStoreWriter) throws {
        let fileStart = files.last?.firstRowid ?? 1
        try writer.upsert(batch) { position, row in
            switch row.change {
            case .inserted:
                append(UInt64(row.rowid - lastRowid))
                let delta = lines[position] - lastLine
                append(UInt64(bitPattern: Int64((delta << 1) ^ (delta >> 63))))
                lastRowid = row.rowid
                lastLine = lines[position]
            case .replacedRowOfThisTransaction where row.rowid < fileStart:
                // One file's own repeats are reported row by row by the importer; here only an earlier file's.
                count += 1
                if examples.count < Self.exampleLimit, let file = files.last?.name {
                    examples.append((batch[position].id, file, lines[position], row.rowid))
                }
            case .replacedRowOfThisTransaction, .replacedStoredRow:
                break
            }
        }
    }

    /// The run's one warning, nil when no id came again from a later file.
    /// - Complexity: O(r) in the rows the run inserted (their places are read back once).
    var warning: String? {
        guard count > 0 else { return nil }
        let places = earlierPlaces()
        let shown = examples.map { example in
            let earlier = places[example.earlierRowid].map { "\($0.file):\($0.line)" } ?? "an earlier file"
            return "'\(example.id)' at \(example.file):\(example.line) (first at \(earlier))"
        }
        let more = count > shown.count ? ", …" : ""
        return "\(count) rows gave an id that an earlier file of this run had given; the later row wins: "
            + shown.joined(separator: ", ") + more
    }

    /// The file and line of each example's earlier row.
    private func earlierPlaces() -> [Int64: (file: String, line: Int)] {
        let wanted = Set(examples.map(\.earlierRowid))
        var found: [Int64: (file: String, line: Int)] = [:]
        var offset = 0, rowid: Int64 = 0, line = 0
        while offset < insertedRows.count, found.count < wanted.count {
            rowid += Int64(read(&offset))
            let zigzag = read(&offset)
            line += Int(Int64(bitPattern: zigzag >> 1) ^ -Int64(bitPattern: zigzag & 1))
            if wanted.contains(rowid), let file = files.last(where: { $0.firstRowid <= rowid }) {
                found[rowid] = (file.name, line)
            }
        }
        return found
    }

    /// Appends `value` as LEB128: seven bits a byte, the high bit set on all but the last.
    private func append(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            insertedRows.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        insertedRows.append(UInt8(value))
    }

    private func read(_ offset: inout Int) -> UInt64 {
        var value: UInt64 = 0, shift: UInt64 = 0
        while offset < insertedRows.count {
            let byte = insertedRows[offset]
            offset += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { break }
            shift += 7
        }
        return value
    }
}
