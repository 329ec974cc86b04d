/// The first error of a write function that runs on the writer thread; read by the caller after the run
/// (which waits for every write), so no lock is needed.
final class CheckInFirstError: @unchecked Sendable {
    private(set) var error: CheckInError?

    /// Whether an error was kept.
    var isSet: Bool { error != nil }

    /// Keeps `error` unless one was kept already.
    func set(_ error: CheckInError) {
        if self.error == nil { self.error = error }
    }
}
