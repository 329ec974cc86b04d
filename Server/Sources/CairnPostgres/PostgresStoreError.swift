/// Why the PostgreSQL store could not do what was asked; every case names what it was doing and the server's own
/// message (PostgreSQL's `message`, `detail` and SQLSTATE), never a generic "operation failed".
public enum PostgresStoreError: Error, CustomStringConvertible, Sendable {
    /// A store URL that is not `postgres://user[:password]@host[:port]/database`.
    case invalidURL(String, reason: String)
    /// The server could not be reached or refused the connection.
    case cannotConnect(url: String, message: String)
    /// A statement failed; `action` says what Cairn was doing.
    case failed(action: String, message: String)
    /// A row of the features table that is not a valid feature (written by plain SQL around the table's checks).
    case invalidRow(id: String, reason: String)
    /// The database's schema was made by a newer Cairn (a migration this version does not know).
    case newerSchema(version: Int, known: Int)
    /// A reader found no Cairn schema in the database (readers never create it: a writer does, on connecting).
    case noSchema(url: String)
    /// A reader found the schema of an older Cairn (a writer of this version upgrades it on connecting).
    case olderSchema(url: String, version: Int, known: Int)

    public var description: String {
        switch self {
        case .invalidURL(let url, let reason):
            "'\(url)' is not a PostgreSQL store URL: \(reason) (expected postgres://user[:password]@host[:port]/database)"
        case .cannotConnect(let url, let message): "cannot connect to \(url): \(message)"
        case .failed(let action, let message): "PostgreSQL store: \(action): \(message)"
        case .invalidRow(let id, let reason): "PostgreSQL store: the row of feature '\(id)' is not a valid feature: \(reason)"
        case .newerSchema(let version, let known):
            "PostgreSQL store: its schema is at version \(version), this Cairn knows versions up to \(known): use a newer Cairn"
        case .noSchema(let url):
            "database \(url) has no Cairn schema: a reader does not create it; run `cairn import FILE --db \(url)` "
                + "(or `cairn serve --db \(url) --write-token TOKEN`) first, as a role that may create tables"
        case .olderSchema(let url, let version, let known):
            "database \(url) has Cairn's schema version \(version), this cairn reads version \(known): a reader does "
                + "not upgrade it; run `cairn import FILE --db \(url)` (or `cairn serve --db \(url) --write-token TOKEN`) "
                + "with this cairn first, as a role that may alter tables"
        }
    }
}
