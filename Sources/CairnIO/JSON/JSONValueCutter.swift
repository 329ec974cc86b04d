/// Cuts one JSON value out of a byte stream without parsing it, so each GeoJSON feature can be parsed on its own.
///
/// It tracks only what delimits a value: string state (with escapes) and a stack of open brackets.
/// A closing bracket that does not match the innermost open one closes up to its matching opener when there is
/// one (and is ignored otherwise), so one malformed feature does not swallow the features after it; the parser
/// then rejects the malformed bytes.
///
/// Memory is bounded whatever the value: at most `maxBytes` of it are kept (the rest is scanned and dropped), and
/// the bracket stack keeps at most `maxTrackedDepth` openers, counting deeper ones (the parser refuses such depth).
struct JSONValueCutter {
    /// How a cut ended.
    enum Outcome: Equatable {
        /// The value is complete in the buffer.
        case complete
        /// The file ended inside the value.
        case endOfFile
        /// The value is complete but longer than `maxBytes`: only its first `maxBytes` bytes are in the buffer.
        case tooLong(length: Int)
    }

    /// The longest value kept, in bytes.
    let maxBytes: Int
    private var stack: [UInt8] = []
    /// Openers beyond `maxTrackedDepth`, counted but not kept.
    private var untrackedDepth = 0
    /// The value's length so far, kept and dropped bytes together.
    private var length = 0
    /// Deeper than the parser accepts, so the kind of a deeper opener never decides the outcome.
    private static let maxTrackedDepth = JSONParser.maxDepth + 1

    /// A cutter that keeps values of up to `maxBytes` bytes.
    init(maxBytes: Int = ImportOptions.defaultMaxRecordBytes) {
        self.maxBytes = max(1, maxBytes)
    }

    /// Counts `cursor.bytes[start..<end]` into the value and appends what fits under `maxBytes` to `buffer`.
    @inline(__always)
    private mutating func keep(_ cursor: JSONByteCursor, from start: Int, to end: Int, into buffer: inout [UInt8]) {
        let room = maxBytes - buffer.count
        if end - start <= room {
            cursor.append(from: start, to: end, into: &buffer)
        } else if room > 0 {
            buffer.reserveCapacity(maxBytes) // grown to the limit exactly, not to the next power of two
            cursor.append(from: start, to: start + room, into: &buffer)
        }
        length += end - start
    }

    /// The outcome of a value that ended: complete, or too long.
    private var ended: Outcome { length > maxBytes ? .tooLong(length: length) : .complete }

    /// Appends the value starting at the cursor's (non-whitespace) byte to `buffer` and consumes it.
    /// Scalars (numbers, literals) end before the next `,`, `]`, `}` or whitespace.
    /// - Complexity: O(n) in the bytes of the value.
    mutating func cut(from cursor: JSONByteCursor, into buffer: inout [UInt8]) throws(InputError) -> Outcome {
        length = 0
        guard try cursor.refill() else { return .endOfFile }
        let first = cursor.bytes[cursor.position]
        if first != UInt8(ascii: "{") && first != UInt8(ascii: "[") && first != UInt8(ascii: "\"") {
            return try cutScalar(from: cursor, into: &buffer)
        }
        stack.removeAll(keepingCapacity: true)
        untrackedDepth = 0
        var inString = false
        var escaped = false
        while try cursor.refill() {
            let bytes = cursor.bytes
            let start = cursor.position
            let end = cursor.count
            var index = start
            while index < end {
                let byte = bytes[index]
                if inString {
                    if escaped {
                        escaped = false
                    } else if byte == UInt8(ascii: "\\") {
                        escaped = true
                    } else if byte == UInt8(ascii: "\"") {
                        inString = false
                        if stack.isEmpty {
                            index += 1
                            keep(cursor, from: start, to: index, into: &buffer)
                            cursor.position = index
                            return ended
                        }
                    } else if byte == 0x0A {
                        cursor.noteNewline(at: index)
                    }
                } else {
                    switch byte {
                    case UInt8(ascii: "\""):
                        inString = true
                    case UInt8(ascii: "{"), UInt8(ascii: "["):
                        if stack.count < JSONValueCutter.maxTrackedDepth { stack.append(byte) } else { untrackedDepth += 1 }
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        close(byte)
                        if stack.isEmpty {
                            index += 1
                            keep(cursor, from: start, to: index, into: &buffer)
                            cursor.position = index
                            return ended
                        }
                    case 0x0A:
                        cursor.noteNewline(at: index)
                    default:
                        break
                    }
                }
                index += 1
            }
            keep(cursor, from: start, to: end, into: &buffer)
            cursor.position = end
        }
        return .endOfFile
    }

    private mutating func close(_ byte: UInt8) {
        if untrackedDepth > 0 {
            untrackedDepth -= 1
            return
        }
        let opener = byte == UInt8(ascii: "}") ? UInt8(ascii: "{") : UInt8(ascii: "[")
        guard let match = stack.lastIndex(of: opener) else { return }
        stack.removeSubrange(match...)
    }

    private mutating func cutScalar(from cursor: JSONByteCursor, into buffer: inout [UInt8]) throws(InputError) -> Outcome {
        while try cursor.refill() {
            let start = cursor.position
            var index = start
            while index < cursor.count {
                switch cursor.bytes[index] {
                case UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), 0x20, 0x09, 0x0D, 0x0A:
                    keep(cursor, from: start, to: index, into: &buffer)
                    cursor.position = index
                    return ended
                default:
                    index += 1
                }
            }
            keep(cursor, from: start, to: index, into: &buffer)
            cursor.position = index
        }
        return ended
    }
}
