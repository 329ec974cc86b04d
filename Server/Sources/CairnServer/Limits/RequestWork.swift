import Hummingbird
import NIOCore

/// The work of one request, bounded in time and stopped when its client goes: long loops (check-in validation,
/// cluster builds) ask `shouldStop` between steps, or call `check()`, which turns a stop into the answer.
///
/// The limit covers the work, not the sending of an answer already made: a slow reader is bounded by the idle
/// timeout and the budget of unsent answers (`UnsentAnswerBudget`), not cut off mid-answer after a fixed time.
final class RequestWork: Sendable {
    /// When the work must be done.
    let deadline: ContinuousClock.Instant
    /// The configured limit, for messages.
    let limitSeconds: Double
    /// The client's connection; nil in tests without one.
    private let channel: (any Channel)?

    /// Work that starts now and may take `limitSeconds` for the client on `channel`.
    init(limitSeconds: Double, channel: (any Channel)?) {
        self.limitSeconds = limitSeconds
        // A connection not open at the start is not a client's (HummingbirdTesting's router tests run on an
        // unconnected test channel): it is not watched.
        self.channel = channel.flatMap { $0.isActive ? $0 : nil }
        deadline = .now + .nanoseconds(Int64(min(limitSeconds, 1e9) * 1e9))
    }

    /// Whether the client closed its connection (an atomic read of the channel's state).
    var isClientGone: Bool { channel.map { !$0.isActive } ?? false }

    /// Whether the time is up.
    var isPastDeadline: Bool { ContinuousClock.now >= deadline }

    /// Whether the work should stop: its client went, or its time is up.
    var shouldStop: Bool { isClientGone || isPastDeadline }

    /// The refusal of work that took too long: 503 (the server could not do it now, a retry or a smaller request
    /// may succeed), not 408, which says the client was too slow to send its request.
    var overTime: RequestError {
        RequestError(.serviceUnavailable, "the request's work took longer than the server's limit of \(Self.seconds(limitSeconds)) "
                     + "(cairn serve --request-time-limit-seconds); ask for less (a smaller box, a lower limit, a smaller body) or retry later")
    }

    /// Throws `overTime` when the time is up, `ClientGone` when the client went.
    func check() throws {
        if isPastDeadline { throw overTime }
        if isClientGone { throw ClientGone() }
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}

/// The client of a request closed its connection: there is no one to answer, the work stops.
struct ClientGone: Error {}
