import CZlib

/// gzip's decompression for tests that read back what Cairn compressed (tiles in archives): zlib's `inflate`,
/// apart from CairnIO's reader.
public enum Gunzip {
    /// The bytes a whole gzip stream holds, or nil when `bytes` are not one (corrupt, truncated).
    public static func decompressed(_ bytes: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        // Window bits 15 + 16: a gzip wrapper only. inflateInit2_ returns Z_OK or an error code.
        guard inflateInit2_(&stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var input = bytes
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        return input.withUnsafeMutableBufferPointer { source -> [UInt8]? in
            stream.next_in = source.baseAddress
            stream.avail_in = UInt32(source.count)
            while true {
                let (status, produced) = chunk.withUnsafeMutableBufferPointer { target -> (Int32, Int) in
                    stream.next_out = target.baseAddress
                    stream.avail_out = UInt32(target.count)
                    // Z_STREAM_END at the end of the stream, Z_OK on progress, an error code otherwise.
                    let status = inflate(&stream, Z_NO_FLUSH)
                    return (status, target.count - Int(stream.avail_out))
                }
                out += chunk[0..<produced]
                if status == Z_STREAM_END { return stream.avail_in == 0 ? out : nil }
                guard status == Z_OK, produced > 0 || stream.avail_in > 0 else { return nil }
            }
        }
    }
}
