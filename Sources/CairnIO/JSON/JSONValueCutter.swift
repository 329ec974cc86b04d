/// Cuts one JSON value out of a byte stream without parsing it, so each GeoJSON feature can be parsed on its own.
///
/// It tracks only what delimits a value: string state (with escapes) and a stack of open brackets.
/// A closing bracket that does not match the innermost open one closes up to its matching opener when there is
/// one (and is ignored otherwise), so one malformed feature does not swallow the features after it; the parser
/// then rejects the malformed bytes.
struct JSONValueCutter {
    /// How a cut ended.
    enum Outcome: Equatable {
        /// The value is complete in the buffer.
        case complete
        /// The file ended inside the value.
        case endOfFile
    }

    private var stack: [UInt8] = []

    /// Appends the value starting at the cursor's (non-whitespace) byte to `buffer` and consumes it.
    /// Scalars (numbers, literals) end before the next `,`, `]`, `}` or whitespace.
    /// - Complexity: O(n) in the bytes of the value.
    mutating func cut(from cursor: JSONByteCursor, into buffer: inout [UInt8]) throws(InputError) -> Outcome {
        guard try cursor.refill() else { return .endOfFile }
        let first = cursor.bytes[cursor.position]
        if first != UInt8(ascii: "{") && first != UInt8(ascii: "[") && first != UInt8(ascii: "\"") {
            return try cutScalar(from: cursor, into: &buffer)
        }
        stack.removeAll(keepingCapacity: true)
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
                            cursor.append(from: start, to: index, into: &buffer)
                            cursor.position = index
                            return .complete
                        }
                    } else if byte == 0x0A {
                        cursor.noteNewline(at: index)
                    }
                } else {
                    switch byte {
                    case UInt8(ascii: "\""):
                        inString = true
                    case UInt8(ascii: "{"), UInt8(ascii: "["):
                        stack.append(byte)
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        close(byte)
                        if stack.isEmpty {
                            index += 1
                            cursor.append(from: start, to: index, into: &buffer)
                            cursor.position = index
                            return .complete
                        }
                    case 0x0A:
                        cursor.noteNewline(at: index)
                    default:
                        break
                    }
                }
                index += 1
            }
            cursor.append(from: start, to: end, into: &buffer)
            cursor.position = end
        }
        return .endOfFile
    }

    private mutating func close(_ byte: UInt8) {
        let opener = byte == UInt8(ascii: "}") ? UInt8(ascii: "{") : UInt8(ascii: "[")
        guard let match = stack.lastIndex(of: opener) else { return }
        stack.removeSubrange(match...)
    }

    private func cutScalar(from cursor: JSONByteCursor, into buffer: inout [UInt8]) throws(InputError) -> Outcome {
        while try cursor.refill() {
            let start = cursor.position
            var index = start
            while index < cursor.count {
                switch cursor.bytes[index] {
                case UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), 0x20, 0x09, 0x0D, 0x0A:
                    cursor.append(from: start, to: index, into: &buffer)
                    cursor.position = index
                    return .complete
                default:
                    index += 1
                }
            }
            cursor.append(from: start, to: index, into: &buffer)
            cursor.position = index
        }
        return .complete
    }
}
