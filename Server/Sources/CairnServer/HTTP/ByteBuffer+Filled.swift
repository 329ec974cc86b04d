import NIOCore

extension ByteBuffer {
    /// A buffer of exactly `byteCount` readable bytes, written in place by `fill` (which writes every one of them):
    /// an answer assembled straight into the buffer NIO sends, with no array copied in between.
    /// - Complexity: O(1) plus `fill`'s work (NIO rounds the allocation up to a power of two).
    static func filled(byteCount: Int, _ fill: (UnsafeMutableRawBufferPointer) -> Void) -> ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: byteCount)
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: byteCount) { room in
            fill(UnsafeMutableRawBufferPointer(rebasing: room.prefix(byteCount)))
            return byteCount
        }
        return buffer
    }
}
