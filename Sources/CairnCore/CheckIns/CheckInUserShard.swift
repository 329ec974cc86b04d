/// One shard of a check-in run split by user: the check-ins whose user id falls in shard `index` of `count`.
///
/// The duplicate rule's only state is per user (the first valid check-in per user and event wins), so N runs, each
/// keeping one shard of the same input against the same reference data, give together exactly the rows of one run
/// over everything. The rule is stable and documented, so that machines built apart agree:
/// shard = XXH64(the user id's bytes as read, seed 0) mod `count`, plus 1. A row whose user cannot be read (a
/// malformed row, a record over the size limit) counts as the empty user id, so it lands in exactly one shard too.
public struct CheckInUserShard: Sendable, Hashable, CustomStringConvertible {
    /// The shard kept, 1 to `count`.
    public let index: Int
    /// How many shards the input is split into, 1 or more.
    public let count: Int

    /// The shard `index` of `count`, or nil unless 1 <= index <= count.
    /// - Complexity: O(1).
    public init?(index: Int, count: Int) {
        guard count >= 1, (1...count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// Reads `I/N` (`2/4`): whole numbers with 1 <= I <= N; nil for anything else.
    /// - Complexity: O(n) in the text's length.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let index = Int(parts[0]), let count = Int(parts[1]) else { return nil }
        self.init(index: index, count: count)
    }

    /// `I/N`.
    public var description: String { "\(index)/\(count)" }

    /// The shard, 1 to `count`, that a user id's bytes fall in.
    /// - Complexity: O(n) in the id's length.
    @inline(__always)
    public static func shard(ofUser user: UnsafeRawBufferPointer, count: Int) -> Int {
        // XXH64, seed 0: specified independently of Cairn (xxhash's doc/xxhash_spec.md), so another tool can split alike.
        Int(SnapshotChecksum.xxh64(user, seed: 0) % UInt64(count)) + 1
    }

    /// Whether a user id's bytes fall in this shard.
    /// - Complexity: O(n) in the id's length.
    @inline(__always)
    public func contains(user: UnsafeRawBufferPointer) -> Bool {
        count == 1 || Self.shard(ofUser: user, count: count) == index
    }

    /// Whether a user id falls in this shard (its UTF-8 bytes).
    /// - Complexity: O(n) in the id's length.
    public func contains(user: String) -> Bool {
        var user = user
        return user.withUTF8 { contains(user: UnsafeRawBufferPointer($0)) }
    }
}
