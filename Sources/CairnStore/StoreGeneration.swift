import GRDB

/// The store's write generation and identity, kept in the `meta` table (see `StoreSchema`).
enum StoreGeneration {
    /// Adds one to the generation and draws a new content id, inside the caller's write transaction (so a
    /// rollback undoes both).
    static func increment(_ db: Database) throws {
        try db.execute(sql: """
            UPDATE meta SET value = value + 1 WHERE key = 'generation';
            UPDATE meta SET value = lower(hex(randomblob(16))) WHERE key = 'content_id';
            """)
    }
}

extension FeatureStore {
    /// A number that changes with every committed write: each `write` transaction (and so each `upsert` and
    /// `delete`) adds one. A cache of the store's content, such as an index snapshot, is current while the
    /// generation it recorded equals this one (and the `identifier()` matches). Edits made with plain SQL outside
    /// Cairn do not change it: bump `meta.generation` by hand, or delete the snapshot, after such edits.
    /// - Complexity: O(1).
    public func generation() throws -> Int64 {
        try read("reading the store generation") { db in
            try Int64.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'generation'") ?? 0
        }
    }

    /// The store's identity: 32 hexadecimal digits chosen at random when the store file was created, so a new
    /// store at the same path never passes for the old one.
    /// - Complexity: O(1).
    public func identifier() throws -> String {
        try read("reading the store identifier") { db in
            try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'store_id'") ?? ""
        }
    }

    /// The store's content id: 32 random hexadecimal digits drawn anew by every committed write transaction. Unlike
    /// the generation, a backup restored over the store and written again never repeats an earlier value.
    /// - Complexity: O(1).
    public func contentIdentifier() throws -> String {
        try read("reading the store content id") { db in
            try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'content_id'") ?? ""
        }
    }

    /// Every `meta` row (`generation`, `store_id`, `content_id`), read in one transaction.
    /// - Complexity: O(1).
    func metaValues() throws -> [String: String] {
        try read("reading the store's metadata") { db in
            var values: [String: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT key, CAST(value AS TEXT) FROM meta") {
                if let key: String = row[0], let value: String = row[1] { values[key] = value }
            }
            return values
        }
    }

}
