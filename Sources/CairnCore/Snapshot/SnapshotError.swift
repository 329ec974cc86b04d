/// Why a snapshot file was refused (or could not be written). Every message names the file when it has one.
///
/// Loading checks the header, the length, the checksum, the section table and then every value it relies on,
/// so a damaged or crafted file ends here, never in a crash.
public struct SnapshotError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file, or nil for bytes that did not come from a file.
    public let path: String?
    /// What is wrong.
    public let reason: Reason

    /// What is wrong with the file.
    public enum Reason: Equatable, Sendable {
        /// The file does not start with the snapshot magic bytes.
        case notASnapshot
        /// The file was written on a machine with the other byte order.
        case byteOrderMismatch
        /// The format version is not the one this build reads.
        case unsupportedVersion(found: UInt32, supported: UInt32)
        /// The file ends at `atByte` but its header says it holds `ofBytes` (nil when even the header is cut).
        case truncated(atByte: Int, ofBytes: Int?)
        /// The file holds more bytes than its header says: something was appended to it.
        case trailingBytes(fileBytes: Int, expectedBytes: Int)
        /// The payload's checksum is not the one stored in the header: the file is damaged.
        case checksumMismatch(stored: UInt64, computed: UInt64)
        /// A section's byte range lies outside the file (or overlaps the header).
        case sectionOutOfBounds(section: String, offset: UInt64, byteCount: UInt64, fileBytes: Int)
        /// A section the format requires is absent.
        case missingSection(String)
        /// A section's content is inconsistent (wrong length, an index out of range, an invalid value, ...).
        case invalidContent(section: String, detail: String)
        /// The operating system refused to read or write the file.
        case io(operation: String, message: String)
    }

    /// Creates an error.
    /// - Complexity: O(1).
    public init(path: String?, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    public var description: String {
        let prefix = path.map { "\($0): " } ?? ""
        switch reason {
        case .notASnapshot:
            return prefix + "not a Cairn snapshot (the file does not start with the snapshot magic bytes)"
        case .byteOrderMismatch:
            return prefix + "the snapshot was written on a machine with the other byte order; rebuild it here"
        case .unsupportedVersion(let found, let supported):
            return prefix + "unsupported snapshot version \(found) (this build reads version \(supported)); rebuild the snapshot"
        case .truncated(let at, let of):
            let total = of.map { "\($0)" } ?? "at least \(SnapshotFormat.headerBytes)"
            return prefix + "snapshot truncated at byte \(at) of \(total)"
        case .trailingBytes(let fileBytes, let expected):
            return prefix + "snapshot has \(fileBytes) bytes but its header says \(expected): extra bytes at the end"
        case .checksumMismatch(let stored, let computed):
            return prefix + "snapshot checksum mismatch (stored \(hex(stored)), computed \(hex(computed))): the file is damaged"
        case .sectionOutOfBounds(let section, let offset, let byteCount, let fileBytes):
            return prefix + "snapshot section '\(section)' (\(byteCount) bytes at offset \(offset)) is out of bounds of the \(fileBytes)-byte file"
        case .missingSection(let section):
            return prefix + "snapshot has no '\(section)' section"
        case .invalidContent(let section, let detail):
            return prefix + "snapshot section '\(section)' is invalid: \(detail)"
        case .io(let operation, let message):
            return prefix + "cannot \(operation) the snapshot: \(message)"
        }
    }

    private func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: 16 - digits.count) + digits
    }
}
