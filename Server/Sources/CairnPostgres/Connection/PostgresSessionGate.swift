import Logging

/// Lends a store's one connection to one operation at a time, in arrival order, and opens it again after it broke.
/// An actor alone would not do: its methods interleave at every `await`, and two transactions must never share a
/// connection at once.
actor PostgresSessionGate {
    private let url: PostgresStoreURL
    private let logger: Logger
    private var session: PostgresSession?
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(url: PostgresStoreURL, logger: Logger, session: PostgresSession?) {
        self.url = url
        self.logger = logger
        self.session = session
    }

    /// Waits for the connection to be free, then lends it (opened again when it was closed).
    /// - Throws: `PostgresStoreError.cannotConnect` (the gate is free again then).
    func acquire() async throws(PostgresStoreError) -> PostgresSession {
        while busy { await withCheckedContinuation { waiting.append($0) } }
        busy = true
        if let session, !session.connection.isClosed { return session }
        do {
            let opened = try await PostgresSession.open(url, logger: logger)
            session = opened
            return opened
        } catch {
            release(closed: true)
            throw error
        }
    }

    /// Gives the connection back; `closed` drops it, so that the next operation connects again.
    func release(closed: Bool) {
        if closed { session = nil }
        busy = false
        if !waiting.isEmpty { waiting.removeFirst().resume() }
    }

    /// Closes the connection (the next operation opens one again).
    func close() async {
        let closing = session
        session = nil
        await closing?.close()
    }
}
