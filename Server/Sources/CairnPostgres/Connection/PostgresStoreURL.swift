/// A PostgreSQL store's address, `postgres://user[:password]@host[:port]/database` (or `postgresql://`), as the
/// `--db` option takes it. User and password may be percent-encoded; the port defaults to 5432; an IPv6 host is
/// written in brackets (`[::1]`). Query parameters (`?sslmode=`) are refused rather than ignored: this version
/// connects without TLS, for a server on loopback or a private network.
public struct PostgresStoreURL: Sendable, Hashable, CustomStringConvertible {
    public let user: String
    public let password: String?
    public let host: String
    public let port: Int
    public let database: String

    /// Whether `text` names a PostgreSQL store (it starts with `postgres://` or `postgresql://`), so that a front end
    /// can tell it from an SQLite file's path.
    /// - Complexity: O(1).
    public static func isPostgres(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    /// Parses a store URL.
    /// - Throws: `PostgresStoreError.invalidURL` saying which part is wrong.
    /// - Complexity: O(n) in the text's length.
    public init(_ text: String) throws(PostgresStoreError) {
        func invalid(_ reason: String) -> PostgresStoreError { .invalidURL(text, reason: reason) }
        guard let scheme = ["postgres://", "postgresql://"].first(where: { text.hasPrefix($0) }) else {
            throw invalid("it must start with postgres:// or postgresql://")
        }
        var rest = Substring(text.dropFirst(scheme.count))
        if rest.contains("?") || rest.contains("#") { throw invalid("query parameters and fragments are not supported") }
        guard let at = rest.lastIndex(of: "@") else { throw invalid("it names no user (user@host)") }
        let credentials = rest[..<at]
        rest = rest[rest.index(after: at)...]
        let userText = credentials.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard let user = Self.percentDecoded(userText[0]), !user.isEmpty else { throw invalid("the user is empty or badly percent-encoded") }
        var password: String?
        if userText.count == 2 {
            guard let decoded = Self.percentDecoded(userText[1]) else { throw invalid("the password is badly percent-encoded") }
            password = decoded
        }
        guard let slash = rest.firstIndex(of: "/") else { throw invalid("it names no database (host/database)") }
        let authority = rest[..<slash]
        guard let database = Self.percentDecoded(rest[rest.index(after: slash)...]), !database.isEmpty, !database.contains("/") else {
            throw invalid("the database name is empty or not one path segment")
        }
        var host = Substring(authority)
        var portText: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { throw invalid("an IPv6 host's bracket is not closed") }
            let after = host[host.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw invalid("unexpected text after the IPv6 host") }
                portText = after.dropFirst()
            }
            host = host[host.index(after: host.startIndex)..<close]
        } else if let colon = host.lastIndex(of: ":") {
            portText = host[host.index(after: colon)...]
            host = host[..<colon]
        }
        guard !host.isEmpty else { throw invalid("the host is empty") }
        var port = 5432
        if let portText {
            guard let value = Int(portText), (1...65535).contains(value) else { throw invalid("the port must be 1 to 65535, got '\(portText)'") }
            port = value
        }
        self.init(user: user, password: password, host: String(host), port: port, database: database)
    }

    /// A URL from its parts.
    /// - Complexity: O(1).
    public init(user: String, password: String? = nil, host: String, port: Int = 5432, database: String) {
        self.user = user
        self.password = password
        self.host = host
        self.port = port
        self.database = database
    }

    /// The URL without its password (for messages and logs).
    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "postgres://\(user)\(password == nil ? "" : ":***")@\(shownHost):\(port)/\(database)"
    }

    /// The same server's database `database`.
    /// - Complexity: O(1).
    public func with(database: String) -> PostgresStoreURL {
        PostgresStoreURL(user: user, password: password, host: host, port: port, database: database)
    }

    private static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var utf8 = text.utf8.makeIterator()
        while let byte = utf8.next() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard let high = utf8.next().flatMap(hexValue), let low = utf8.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
