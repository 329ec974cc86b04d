#if canImport(Glibc)
import Glibc
#endif

/// The fuzz input as a file: the readers and the check-in input read files (mapped or through zlib), and that
/// path is the one worth fuzzing, so each input is written to a file in a folder of this process's own.
///
/// The folder is in `/dev/shm` when it exists (no disk writes per input), else in `$TMPDIR` or `/tmp`; it is
/// removed when the process exits normally (a crash leaves it, with the input that crashed beside libFuzzer's own copy).
public enum FuzzFile {
    /// This process's folder, made on first use.
    nonisolated(unsafe) private static var folder: String?

    /// Writes `bytes` to `name` in this process's folder (replacing what was there) and returns its path.
    /// - Complexity: O(n) in the bytes.
    public static func write(_ bytes: UnsafeBufferPointer<UInt8>, name: String) -> String {
        let path = folderPath() + "/" + name
        // open returns -1 with errno on failure; the harness cannot go on without its input.
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        if descriptor < 0 { FuzzCheck.fail("cannot write the fuzz input to \(path): errno \(errno)") }
        var written = 0
        while written < bytes.count, let base = bytes.baseAddress {
            // write returns the bytes written, or -1 with errno (EINTR: try again).
            let n = Glibc.write(descriptor, base + written, bytes.count - written)
            if n < 0 {
                if errno == EINTR { continue }
                FuzzCheck.fail("cannot write the fuzz input to \(path): errno \(errno)")
            }
            written += n
        }
        close(descriptor)
        return path
    }

    private static func folderPath() -> String {
        if let folder { return folder }
        var parent = "/dev/shm"
        if access(parent, W_OK) != 0 {
            parent = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        }
        var template = Array((parent + "/cairn-fuzz-XXXXXX").utf8CString)
        // mkdtemp fills in the X's and returns its argument, or NULL with errno.
        let made = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }
        guard made != nil else { FuzzCheck.fail("cannot make a folder in \(parent): errno \(errno)") }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        folder = path
        atexit {
            guard let folder = FuzzFile.folder else { return }
            // The folder holds only the inputs written here; rm -r would be overkill for a few files.
            if let directory = opendir(folder) {
                while let entry = readdir(directory) {
                    let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                    }
                    if name != ".", name != ".." { unlink(folder + "/" + name) }
                }
                closedir(directory)
            }
            rmdir(folder)
        }
        return path
    }
}
