import CairnIO
import CairnTestSupport

/// A PMTiles 3 reader for tests, written from the specification apart from the writer: the header's fields, every
/// directory (root and leaves) decoded to entries, and the tiles by tile id with run lengths expanded.
struct PMTilesTestReader {
    struct Entry: Equatable {
        var tileID: UInt64, offset: UInt64, length: UInt64, runLength: UInt64
    }

    let bytes: [UInt8]
    /// Header fields by name.
    var header: [String: UInt64] = [:]
    var bounds: [Int32] = []
    var center: [Int32] = []
    /// The tile entries (run length above 0) of every directory, in tile id order.
    var entries: [Entry] = []
    /// How many leaf directories were read.
    var leafCount = 0
    var metadata: String = ""

    init(_ bytes: [UInt8], gunzip: ([UInt8]) throws -> [UInt8]) throws {
        self.bytes = bytes
        guard bytes.count >= 127, Array(bytes[0..<7]) == Array("PMTiles".utf8), bytes[7] == 3 else { throw Problem("not PMTiles 3") }
        func u64(_ at: Int) -> UInt64 { (0..<8).reduce(0) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) } }
        func i32(_ at: Int) -> Int32 { Int32(bitPattern: (0..<4).reduce(0) { $0 | UInt32(bytes[at + $1]) << (8 * UInt32($1)) }) }
        let names = ["rootOffset", "rootLength", "metadataOffset", "metadataLength", "leavesOffset", "leavesLength",
                     "dataOffset", "dataLength", "addressedTiles", "tileEntries", "tileContents"]
        for (n, name) in names.enumerated() { header[name] = u64(8 + 8 * n) }
        for (n, name) in ["clustered", "internalCompression", "tileCompression", "tileType", "minZoom", "maxZoom"].enumerated() {
            header[name] = UInt64(bytes[96 + n])
        }
        bounds = [i32(102), i32(106), i32(110), i32(114)]
        header["centerZoom"] = UInt64(bytes[118])
        center = [i32(119), i32(123)]
        func slice(_ offset: UInt64, _ length: UInt64) throws -> [UInt8] {
            guard offset + length <= UInt64(bytes.count) else { throw Problem("a section beyond the file") }
            return Array(bytes[Int(offset)..<Int(offset + length)])
        }
        metadata = String(decoding: try gunzip(try slice(header["metadataOffset"]!, header["metadataLength"]!)), as: UTF8.self)
        func read(_ offset: UInt64, _ length: UInt64) throws {
            let directory = try Self.decode(try gunzip(try slice(offset, length)))
            guard !directory.isEmpty else { throw Problem("an empty directory") }
            for e in directory {
                if e.runLength == 0 {
                    leafCount += 1
                    try read(header["leavesOffset"]! + e.offset, e.length)
                } else {
                    entries.append(e)
                }
            }
        }
        try read(header["rootOffset"]!, header["rootLength"]!)
    }

    /// A directory's entries: count, tile id steps, run lengths, lengths, offsets (0: right after the previous).
    static func decode(_ data: [UInt8]) throws -> [Entry] {
        var at = 0
        func varint() throws -> UInt64 {
            var value: UInt64 = 0, shift: UInt64 = 0
            while true {
                guard at < data.count else { throw Problem("a directory ends inside a varint") }
                let byte = data[at]
                at += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return value }
                shift += 7
            }
        }
        let count = Int(try varint())
        var entries = [Entry](repeating: Entry(tileID: 0, offset: 0, length: 0, runLength: 0), count: count)
        var id: UInt64 = 0
        for i in 0..<count { id += try varint(); entries[i].tileID = id }
        for i in 0..<count { entries[i].runLength = try varint() }
        for i in 0..<count { entries[i].length = try varint() }
        for i in 0..<count {
            let raw = try varint()
            if raw == 0 {
                guard i > 0 else { throw Problem("the first offset cannot follow a previous entry") }
                entries[i].offset = entries[i - 1].offset + entries[i - 1].length
            } else {
                entries[i].offset = raw - 1
            }
        }
        guard at == data.count else { throw Problem("bytes after a directory") }
        return entries
    }

    /// Every addressed tile's bytes (as stored), by tile id.
    func tiles() throws -> [UInt64: [UInt8]] {
        var tiles: [UInt64: [UInt8]] = [:]
        let data = header["dataOffset"]!
        for e in entries {
            guard data + e.offset + e.length <= UInt64(bytes.count), e.length > 0 else { throw Problem("a tile beyond the file") }
            let tile = Array(bytes[Int(data + e.offset)..<Int(data + e.offset + e.length)])
            for k in 0..<e.runLength { tiles[e.tileID + k] = tile }
        }
        return tiles
    }

    struct Problem: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
