/// The lines of a fuzz input: a line feed ends a line; the bytes after the last one, if any, are a last line.
/// The CSV reader also ends a line at a lone CR (`loneCarriageReturns` counts those).
public struct InputLines {
    /// Where each line starts and ends (line feed excluded), in the input's bytes.
    public let ranges: [Range<Int>]
    /// Whether the input starts with gzip's magic bytes (then the readers see its decompressed bytes, and line
    /// numbers are not the input's).
    public let isGzip: Bool
    /// CRs not followed by a line feed.
    public let loneCarriageReturns: Int

    /// Splits `bytes` into lines.
    /// - Complexity: O(n) in the bytes.
    public init(_ bytes: UnsafeBufferPointer<UInt8>) {
        var ranges: [Range<Int>] = []
        var start = 0
        var lone = 0
        for i in bytes.indices where bytes[i] == 0x0D && (i + 1 == bytes.count || bytes[i + 1] != 0x0A) { lone += 1 }
        loneCarriageReturns = lone
        for i in bytes.indices where bytes[i] == 0x0A {
            ranges.append(start ..< i)
            start = i + 1
        }
        endsInsideLine = start < bytes.count
        if endsInsideLine { ranges.append(start ..< bytes.count) }
        self.ranges = ranges
        isGzip = bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B
    }

    /// Line feeds in the input.
    public var lineFeeds: Int { ranges.count - (endsInsideLine ? 1 : 0) }
    /// Whether bytes follow the last line feed.
    public let endsInsideLine: Bool

    /// The highest line number a record or message may name: the line the end of the input is on (a message
    /// about a truncated input names it; after a final line feed it is the empty line after it).
    public var lastLine: Int { lineFeeds + 1 }

    /// The highest line number the CSV reader may name (a lone CR ends a line there too).
    public var lastCSVLine: Int { lineFeeds + loneCarriageReturns + 1 }
}
