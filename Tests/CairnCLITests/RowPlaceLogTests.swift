import CairnTestSupport
import CairnCore
import CairnStore
import Testing
@testable import CairnCLI

/// Issue #15 item 9: the place of every row an import run wrote (to name the earlier row of a repeated id) was held
/// in memory, about two bytes a row; it now goes to a scratch file next to the store in pieces, and the warnings
/// are the same.
@Suite struct RowPlaceLogTests {
    @Test func recordsComeBackInOrderAcrossPieces() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var random = SplitMix64(seed: 9)
        var log = RowPlaceLog(storePath: folder.path(), pieceBytes: 32)
        var written: [(offset: Int, rowid: Int64, line: Int)] = []
        var rowid: Int64 = 0, line = 1
        for _ in 0..<5000 {
            rowid += Int64.random(in: -3...300, using: &random)
            line += Int.random(in: 0...200_000, using: &random)
            written.append((log.byteCount, rowid, line))
            log.append(rowid: rowid, line: line)
        }
        var read: [(offset: Int, rowid: Int64, line: Int)] = []
        log.forEach { read.append(($0, $1, $2)); return true }
        #expect(read.map(\.offset) == written.map(\.offset))
        #expect(read.map(\.rowid) == written.map(\.rowid))
        #expect(read.map(\.line) == written.map(\.line))
        // A record is at most two 10-byte numbers: the buffer never holds more than a piece and one record.
        #expect(log.peakBytesInMemory < 32 + 20)
        var first = 0
        log.forEach { _, _, _ in first += 1; return false }
        #expect(first == 1)
    }

    /// Runs one import of two files through `RunDuplicateIds` with places moved out in pieces of `pieceBytes`.
    private func twoFileRun(pieceBytes: Int) throws -> (warnings: [String], peakBytes: Int) {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try FeatureStore(path: folder.path())
        var duplicates = RunDuplicateIds(storePath: store.path, placePieceBytes: pieceBytes)
        var warnings: [String] = []
        func upsert(_ ids: [String], lines: [Int], writer: FeatureStoreWriter) throws {
            var batch = EncodedFeatureBatch()
            for id in ids { batch.append(try Feature(id: id, kind: .place, location: Coordinate(latitude: 1, longitude: 2))) }
            try duplicates.upsert(batch, lines: lines, writer: writer)
        }
        try store.write { writer in
            duplicates.beginFile("a.csv")
            for start in stride(from: 0, to: 20_000, by: 4096) {
                let rows = start..<min(start + 4096, 20_000)
                try upsert(rows.map { "f\($0)" }, lines: rows.map { $0 * 3 + 2 }, writer: writer)
            }
            if let warning = duplicates.endFile().warning { warnings.append(warning) }
            duplicates.beginFile("b.jsonl")
            try upsert(["f5", "g", "f17000", "f9999", "g"], lines: [1, 2, 3, 4, 5], writer: writer)
            if let warning = duplicates.endFile().warning { warnings.append(warning) }
        }
        if let warning = duplicates.warning { warnings.append(warning) }
        return (warnings, duplicates.places.peakBytesInMemory)
    }

    @Test func repeatsAreNamedFromTheScratchFile() throws {
        let spilled = try twoFileRun(pieceBytes: 64)
        #expect(spilled.warnings == [
            "b.jsonl: 1 row gave an id that an earlier row of the file had given; the later row wins: 'g' at line 5 (first at line 2)",
            "3 rows gave an id that an earlier file of this run had given; the later row wins: 'f5' at b.jsonl:1 (first at a.csv:17), "
                + "'f17000' at b.jsonl:3 (first at a.csv:51002), 'f9999' at b.jsonl:4 (first at a.csv:29999)"])
        #expect(spilled.peakBytes < 64 + 20)
        let inMemory = try twoFileRun(pieceBytes: 1 << 20)
        #expect(inMemory.warnings == spilled.warnings)
        #expect(inMemory.peakBytes > 20_000)
    }
}
