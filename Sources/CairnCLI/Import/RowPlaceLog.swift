import CairnCore
import CairnStore

/// Where each row an import run first wrote came from: its rowid and line, in the order written, as two
/// variable-length deltas (usually two bytes a row), read back only to name the earlier row of a repeated id.
///
/// The bytes are gathered in a buffer of `pieceBytes` and then moved to a `ScratchFile` next to the store, so memory
/// stays one piece whatever the row count (the log was about two bytes a row in memory: 10 MB at 5,000,000 rows).
/// When no scratch file can be created, or a write to it fails, the bytes stay in memory as before.
struct RowPlaceLog {
    /// Bytes gathered before they are moved to the scratch file: 64 KiB, a few writes per million rows.
    static let defaultPieceBytes = 1 << 16

    private let storePath: String
    private let pieceBytes: Int
    private var scratch: ScratchFile?
    /// True once the scratch file could not be created or written: everything stays in `buffer` from then on.
    private var keepsInMemory = false
    /// Bytes moved to the scratch file (its first `spilledBytes`), then those still in memory.
    private var spilledBytes = 0
    private var buffer: [UInt8] = []
    private var lastRowid: Int64 = 0
    private var lastLine = 0
    /// The most bytes held in memory at once, for tests.
    private(set) var peakBytesInMemory = 0

    /// An empty log whose scratch file, when one is needed, goes next to the store at `storePath`.
    init(storePath: String, pieceBytes: Int = RowPlaceLog.defaultPieceBytes) {
        self.storePath = storePath
        self.pieceBytes = max(16, pieceBytes)
    }

    /// The log's length in bytes: where the next row's record starts.
    var byteCount: Int { spilledBytes + buffer.count }

    /// Records that the run first wrote row `rowid` from `line`.
    /// - Complexity: O(1) amortized.
    mutating func append(rowid: Int64, line: Int) {
        appendVarint(zigzag(Int(rowid &- lastRowid)))
        appendVarint(zigzag(line &- lastLine))
        lastRowid = rowid
        lastLine = line
        peakBytesInMemory = max(peakBytesInMemory, buffer.count)
        if buffer.count >= pieceBytes, !keepsInMemory { spill() }
    }

    /// Calls `body` with each record's offset, rowid and line, in the order written, until it returns false.
    /// Reading the scratch file back is best effort: a failed read ends the walk early (the caller then names
    /// fewer earlier rows).
    /// - Complexity: O(n) in the bytes logged.
    func forEach(_ body: (_ offset: Int, _ rowid: Int64, _ line: Int) -> Bool) {
        var decoder = Decoder()
        var offset = 0
        if let scratch, spilledBytes > 0 {
            var piece = [UInt8](repeating: 0, count: pieceBytes)
            while offset < spilledBytes {
                let count = piece.withUnsafeMutableBytes { bytes in
                    (try? scratch.read(at: offset, into: UnsafeMutableRawBufferPointer(
                        rebasing: bytes[0..<min(bytes.count, spilledBytes - offset)]))) ?? 0
                }
                guard count > 0 else { return }
                for k in 0..<count {
                    if let (start, rowid, line) = decoder.take(piece[k], at: offset + k), !body(start, rowid, line) { return }
                }
                offset += count
            }
        }
        for k in buffer.indices {
            if let (start, rowid, line) = decoder.take(buffer[k], at: spilledBytes + k), !body(start, rowid, line) { return }
        }
    }

    /// Moves the buffer to the scratch file.
    private mutating func spill() {
        if scratch == nil { scratch = ScratchFile(nextTo: storePath) }
        guard let scratch, (try? buffer.withUnsafeBytes { try scratch.append($0) }) != nil else {
            keepsInMemory = true
            return
        }
        spilledBytes += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }

    /// Appends `value` as LEB128: seven bits a byte, the high bit set on all but the last.
    private mutating func appendVarint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            buffer.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        buffer.append(UInt8(value))
    }

    private func zigzag(_ value: Int) -> UInt64 { UInt64(bitPattern: Int64((value << 1) ^ (value >> 63))) }

    /// Decodes the records byte by byte, across pieces.
    private struct Decoder {
        private var value: UInt64 = 0, shift: UInt64 = 0
        /// Whether the next number is a line (else a rowid), and where the current record started.
        private var readingLine = false
        private var start = 0
        private var rowid: Int64 = 0, line = 0

        /// Takes the byte at `offset`; returns a record when it completed one.
        mutating func take(_ byte: UInt8, at offset: Int) -> (offset: Int, rowid: Int64, line: Int)? {
            if !readingLine, shift == 0 { start = offset }
            value |= UInt64(byte & 0x7F) << shift
            guard byte < 0x80 else {
                shift += 7
                return nil
            }
            let delta = Int(Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1))
            value = 0
            shift = 0
            if readingLine {
                readingLine = false
                line &+= delta
                return (start, rowid, line)
            }
            rowid &+= Int64(delta)
            readingLine = true
            return nil
        }
    }
}
