/// Where the prefault thread leaves the sum of the bytes it touched: a store the optimiser must keep, so that the
/// look-ahead reads that fault the mapped pages in are not removed as dead code. Nothing reads it back.
final class PrefaultChecksum: @unchecked Sendable {
    private var value: UInt8 = 0
    func store(_ byte: UInt8) { value = byte }
}
