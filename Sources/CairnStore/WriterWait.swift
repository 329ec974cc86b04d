import Foundation

/// How a write waits for another writer of the same store file (another process, or another `FeatureStore` on the
/// same file) to finish: SQLite's busy handler for the store's writer connection.
///
/// SQLite lets one writer at a time hold a WAL database; a second `BEGIN IMMEDIATE` gets `SQLITE_BUSY`. Without a busy
/// handler that error comes back at once ("database is locked"). With this one the write sleeps and retries, in
/// steps of at most `longestSleepSeconds`, until the other writer commits or `limitSeconds` have passed since the
/// first refusal; then SQLite returns `SQLITE_BUSY` and the store throws `StoreError.busy`. `announce` is called
/// once per store, at the first wait, so a front end can say what it waits for.
///
/// Readers never need it: in WAL mode they read the last committed state while a writer writes.
/// Safe to call from any thread (SQLite calls it on the thread running the blocked statement).
final class WriterWait: @unchecked Sendable {
    /// The longest wait before giving up, in seconds.
    let limitSeconds: Double
    /// Called once, at the first wait of this store.
    private let announce: (@Sendable () -> Void)?
    private let lock = NSLock()
    private var announced = false
    /// Whether the last wait ran out (read and cleared by `takeGaveUp()`).
    private var gaveUp = false
    /// When the current run of refusals began (SQLite counts tries from 0 for each blocked statement).
    private var waitStart = ContinuousClock.now

    /// The longest single sleep: short enough that a write starts soon after the other writer commits.
    static let longestSleepSeconds = 0.05

    init(limitSeconds: Double, announce: (@Sendable () -> Void)?) {
        self.limitSeconds = limitSeconds
        self.announce = announce
    }

    /// Whether SQLite should try again after its `numberOfTries`-th refusal (0 for the first); sleeps before saying yes.
    /// - Complexity: O(1), plus the sleep.
    func shouldRetry(numberOfTries: Int) -> Bool {
        let now = ContinuousClock.now
        lock.lock()
        if numberOfTries == 0 { waitStart = now }
        let waitedSeconds = Self.seconds(now - waitStart)
        let announceNow = !announced && limitSeconds > 0
        announced = announced || announceNow
        lock.unlock()
        let remainingSeconds = limitSeconds - waitedSeconds
        guard remainingSeconds > 0 else {
            lock.withLock { gaveUp = true }
            return false
        }
        if announceNow { announce?() }
        // Back off like SQLite's own busy timeout (1, 2, 5, 10, 20 ms...), then poll every `longestSleepSeconds`.
        let steps = [0.001, 0.002, 0.005, 0.01, 0.02]
        let sleepSeconds = min(numberOfTries < steps.count ? steps[numberOfTries] : Self.longestSleepSeconds, remainingSeconds)
        Thread.sleep(forTimeInterval: sleepSeconds)
        return true
    }

    /// Whether a wait ran out since the last call: an `SQLITE_BUSY` that follows one is this bound's doing; others
    /// (SQLite returns some without calling the busy handler) are reported as they are.
    /// - Complexity: O(1).
    func takeGaveUp() -> Bool {
        lock.withLock {
            defer { gaveUp = false }
            return gaveUp
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
