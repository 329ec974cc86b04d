import CairnIO
import SystemPackage

/// Where the verdict rows go: a file or standard output, written straight from the rendered batches (no
/// intermediate buffer) through swift-system's `FileDescriptor`.
///
/// A file is written under a temporary name beside it and renamed into place by `commit()`, once the run has
/// completed (CairnIO's `OutputFile`, which `OutputSink` also writes through): a run that fails (a missing input,
/// a bad header, a full disk) leaves an existing file untouched. A name ending in `.gz` (any case) is written
/// gzip-compressed; a device or a pipe such as `/dev/stdout` is written in place.
public final class CheckInOutputFile {
    /// The file being written; nil for standard output.
    private let file: OutputFile?

    /// Opens a temporary file beside `path`, or standard output when nil or `-`.
    /// - Throws: `CheckInError` when the file cannot be opened for writing.
    /// - Complexity: O(1).
    public init(path: String?) throws(CheckInError) {
        guard let path, path != "-" else {
            file = nil
            return
        }
        do throws(InputError) { file = try OutputFile(path: path) } catch { throw CheckInError(error.description) }
    }

    /// Ends a gzip stream, closes the file and renames it into place (nothing to do for standard output).
    /// - Throws: `CheckInError` when the file cannot be closed or renamed (the temporary file is removed).
    /// - Complexity: O(1).
    public func commit() throws(CheckInError) {
        do throws(InputError) { try file?.commit() } catch { throw CheckInError(error.description) }
    }

    // Not committed: the run failed; `OutputFile` removes the temporary file and any file at the path stays.

    /// Writes all of `bytes` (retrying interrupted and partial writes).
    /// - Throws: `CheckInError` when a write fails (a full disk, a closed pipe).
    /// - Complexity: O(n) in the bytes written.
    public func write(_ bytes: [UInt8]) throws(CheckInError) {
        guard let file else {
            do {
                _ = try FileDescriptor.standardOutput.writeAll(bytes)
            } catch {
                throw CheckInError("standard output: cannot write: \(error)")
            }
            return
        }
        let failure = bytes.withUnsafeBytes { buffer -> InputError? in
            do throws(InputError) { try file.write(buffer) } catch { return error }
            return nil
        }
        if let failure { throw CheckInError(failure.description) }
    }
}
