import Logging
import NIOCore
import PostgresNIO

/// One connection to the store's server, behind thin functions that turn postgres-nio's errors into
/// `PostgresStoreError` with PostgreSQL's own message (`PSQLError`'s description hides it on purpose).
/// Not shared between tasks that run statements at once: a transaction owns its session.
struct PostgresSession: Sendable {
    let connection: PostgresConnection
    let url: PostgresStoreURL
    let logger: Logger

    /// Connects, without TLS (see `PostgresStoreURL`).
    /// - Throws: `PostgresStoreError.cannotConnect` with the server's or the network's message.
    static func open(_ url: PostgresStoreURL, logger: Logger) async throws(PostgresStoreError) -> PostgresSession {
        var configuration = PostgresConnection.Configuration(host: url.host, port: url.port, username: url.user,
                                                             password: url.password, database: url.database, tls: .disable)
        // 10 s: long enough for a loaded server, short enough that a replica's reconnect loop stays responsive.
        configuration.options.connectTimeout = .seconds(10)
        do {
            let connection = try await PostgresConnection.connect(configuration: configuration, id: nextID(), logger: logger)
            return PostgresSession(connection: connection, url: url, logger: logger)
        } catch {
            throw .cannotConnect(url: url.description, message: Self.message(error))
        }
    }

    /// Runs `query` and collects its rows with `decode`.
    /// - Throws: `PostgresStoreError.failed` naming `action`.
    func rows<Row>(_ query: PostgresQuery, action: String, _ decode: (PostgresRow) throws -> Row) async throws(PostgresStoreError) -> [Row] {
        do {
            var rows: [Row] = []
            for try await row in try await connection.query(query, logger: logger) { rows.append(try decode(row)) }
            return rows
        } catch let error as PostgresStoreError {
            throw error
        } catch {
            throw .failed(action: action, message: Self.message(error))
        }
    }

    /// Runs `query` and reads through its rows one at a time with `body` (nothing collected).
    /// - Throws: `PostgresStoreError.failed` naming `action`, or what `body` threw as a `PostgresStoreError`.
    func forEachRow(_ query: PostgresQuery, action: String, _ body: (PostgresRow) throws -> Void) async throws(PostgresStoreError) {
        do {
            for try await row in try await connection.query(query, logger: logger) { try body(row) }
        } catch let error as PostgresStoreError {
            throw error
        } catch {
            throw .failed(action: action, message: Self.message(error))
        }
    }

    /// Runs one statement (no rows expected, any returned are dropped).
    /// - Throws: `PostgresStoreError.failed` naming `action`.
    func execute(_ query: PostgresQuery, action: String) async throws(PostgresStoreError) {
        do {
            try await connection.query(query, logger: logger)
        } catch {
            throw .failed(action: action, message: Self.message(error))
        }
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws (its error rethrown).
    func transaction<Result>(_ action: String, isolation: String = "READ COMMITTED",
                                       _ body: () async throws(PostgresStoreError) -> Result) async throws(PostgresStoreError) -> Result {
        try await execute(PostgresQuery(unsafeSQL: "BEGIN ISOLATION LEVEL \(isolation)"), action: action)
        let result: Result
        do {
            result = try await body()
        } catch {
            // The first error is the one to report; a failed rollback ends the connection anyway.
            try? await execute("ROLLBACK", action: action)
            throw error
        }
        try await execute("COMMIT", action: action)
        return result
    }

    /// Sends `COPY table (columns) FROM STDIN` in text format and streams `chunks` (each made by `next`, nil at the end).
    /// - Throws: `PostgresStoreError.failed` with the server's message (a bad row names its line in `detail`), or the
    ///   error `next` threw.
    func copy(into table: String, columns: [String], action: String,
              next: () throws(PostgresStoreError) -> ByteBuffer?) async throws(PostgresStoreError) {
        do {
            try await connection.copyFrom(table: table, columns: columns, logger: logger) { writer in
                while let chunk = try next() { try await writer.write(chunk) }
            }
        } catch let error as PostgresStoreError {
            throw error
        } catch {
            throw .failed(action: action, message: Self.message(error))
        }
    }

    /// Closes the connection; errors closing are of no use to the caller.
    func close() async {
        try? await connection.close()
    }

    /// PostgreSQL's message, detail and SQLSTATE for a server error; postgres-nio's code for the others.
    static func message(_ error: any Error) -> String {
        if let error = error as? PostgresStoreError { return error.description }
        guard let error = error as? PSQLError else { return "\(error)" }
        if let info = error.serverInfo, let message = info[.message] {
            var text = message
            if let detail = info[.detail] { text += " (\(detail))" }
            if let where_ = info[.locationContext] { text += " [\(where_)]" }
            if let state = info[.sqlState] { text += " [SQLSTATE \(state)]" }
            return text
        }
        if let underlying = error.underlying { return "\(error.code): \(underlying)" }
        return "\(error.code)"
    }

    /// A connection id for postgres-nio's logs (only told apart there, so random rather than a shared counter).
    private static func nextID() -> Int { Int.random(in: 1...Int(Int32.max)) }
}
