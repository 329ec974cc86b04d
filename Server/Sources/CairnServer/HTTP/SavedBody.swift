#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Hummingbird

/// A request body saved to a temporary file, so that the CLI's streaming readers (features, check-ins) read it as
/// they read a file; removed when the value is released.
final class SavedBody: Sendable {
    /// The temporary file's path; its extension tells the readers the format.
    let path: String

    /// Reads the body, at most `maxBytes` (more is a 413), into a new temporary file ending in `fileExtension`.
    static func save(_ request: Request, maxBytes: Int, fileExtension: String) async throws -> SavedBody {
        var body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: maxBytes)
        } catch is HTTPError {
            throw RequestError(.contentTooLarge, "the body is over the server's limit of \(maxBytes) bytes (cairn serve --max-body-mib)")
        }
        let folder = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array("\(folder)/cairn-body-XXXXXX.\(fileExtension)".utf8CString)
        let descriptor = mkstemps(&template, Int32(fileExtension.utf8.count + 1))
        guard descriptor >= 0 else { throw RequestError(.internalServerError, "cannot create a temporary file in \(folder)") }
        let saved = SavedBody(path: String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        defer { close(descriptor) }
        let complete = body.readWithUnsafeReadableBytes { bytes -> (Int, Bool) in
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written <= 0 { return (offset, false) }
                offset += written
            }
            return (offset, true)
        }
        guard complete else { throw RequestError(.internalServerError, "cannot write the body to \(saved.path)") }
        return saved
    }

    private init(path: String) {
        self.path = path
    }

    deinit {
        unlink(path)
    }
}
