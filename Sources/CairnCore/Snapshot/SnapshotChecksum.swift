/// XXH64 (Yann Collet's xxHash, 64-bit variant, as specified in xxhash's `doc/xxhash_spec.md`), written here from the
/// specification: four 64-bit lanes over 32-byte stripes, then the tail in 8-, 4- and 1-byte steps and a final
/// avalanche. It reads about 8 bytes per multiply, so checking a 30 MB snapshot costs a few milliseconds; any change
/// to the covered bytes changes the result except with probability about 2^-64 (it detects damage, it is not a
/// defence against someone forging a file: loading validates every value anyway).
enum SnapshotChecksum {
    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

    @inline(__always) private static func rotl(_ x: UInt64, _ r: UInt64) -> UInt64 { (x << r) | (x >> (64 - r)) }

    @inline(__always) private static func round(_ acc: UInt64, _ input: UInt64) -> UInt64 {
        rotl(acc &+ input &* prime2, 31) &* prime1
    }

    @inline(__always) private static func merge(_ acc: UInt64, _ lane: UInt64) -> UInt64 {
        (acc ^ round(0, lane)) &* prime1 &+ prime4
    }

    /// The XXH64 hash of `bytes` with `seed`.
    /// - Complexity: O(n).
    static func xxh64(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        let n = bytes.count
        var i = 0
        @inline(__always) func word64(_ at: Int) -> UInt64 { UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self)) }
        @inline(__always) func word32(_ at: Int) -> UInt32 { UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt32.self)) }
        var h: UInt64
        if n >= 32 {
            var v1 = seed &+ prime1 &+ prime2, v2 = seed &+ prime2, v3 = seed, v4 = seed &- prime1
            while i + 32 <= n {
                v1 = round(v1, word64(i))
                v2 = round(v2, word64(i + 8))
                v3 = round(v3, word64(i + 16))
                v4 = round(v4, word64(i + 24))
                i += 32
            }
            h = rotl(v1, 1) &+ rotl(v2, 7) &+ rotl(v3, 12) &+ rotl(v4, 18)
            h = merge(h, v1)
            h = merge(h, v2)
            h = merge(h, v3)
            h = merge(h, v4)
        } else {
            h = seed &+ prime5
        }
        h &+= UInt64(n)
        while i + 8 <= n {
            h ^= round(0, word64(i))
            h = rotl(h, 27) &* prime1 &+ prime4
            i += 8
        }
        if i + 4 <= n {
            h ^= UInt64(word32(i)) &* prime1
            h = rotl(h, 23) &* prime2 &+ prime3
            i += 4
        }
        while i < n {
            h ^= UInt64(bytes[i]) &* prime5
            h = rotl(h, 11) &* prime1
            i += 1
        }
        h ^= h >> 33
        h &*= prime2
        h ^= h >> 29
        h &*= prime3
        h ^= h >> 32
        return h
    }

    /// The header's table checksum of a snapshot's bytes: XXH64 of the section table, seeded with the XXH64 of the
    /// block checksums (`sums`), so that it covers both (see `SnapshotFormat`).
    /// - Complexity: O(table + sums).
    static func tableChecksum(_ file: UnsafeRawBufferPointer, tableEnd: Int, sums: Range<Int>) -> UInt64 {
        xxh64(UnsafeRawBufferPointer(rebasing: file[SnapshotFormat.checksumStart..<tableEnd]),
              seed: xxh64(UnsafeRawBufferPointer(rebasing: file[sums])))
    }
}
