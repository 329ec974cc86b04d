/// Runs its closure once, when released.
/// (A budget given back when the response that took it is released, whatever became of it.)
final class Reservation: Sendable {
    private let release: @Sendable () -> Void

    init(release: @escaping @Sendable () -> Void) {
        self.release = release
    }

    deinit {
        release()
    }
}
