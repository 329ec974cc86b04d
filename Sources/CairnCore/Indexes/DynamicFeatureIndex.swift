#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `FeatureIndex` that takes edits: insert, replace and delete by id, each visible to the next query without
/// rebuilding the static indexes.
///
/// The layout is the classic log-structured one (a static run plus a small delta, as in Bentley and Saxe's
/// "Decomposable searching problems I: static-to-dynamic transformation", J. Algorithms 1980, with one level):
/// - a static `FeatureIndex` *base*, built at the last compaction;
/// - *tombstones*, one bit per base position, set when that base feature is removed or replaced;
/// - a *delta* of features upserted since, in upsert order, searched by a bounded brute-force scan (spherical
///   lower bounds reject most delta features before an exact distance is computed);
/// - id maps: base position by id (built at compaction, never changed until the next one, so copies share it)
///   and delta slot by id (small).
/// Every query searches the base, drops tombstoned items, scans the delta and merges the two exactly.
///
/// **Order of the current features.** The live base features in base order, then the live delta features in
/// the order of their last upsert. An upsert of an existing id removes the old version and appends the new one
/// at the end (like a delete followed by an insert). Every query returns exactly what the same query on a fresh
/// `FeatureIndex(index.features)` returns, in the same order (box: by that order; radius, nearest and
/// containing: by distance, then by that order), as hits carrying the features themselves.
///
/// **Compaction.** `compact()` rebuilds the base from the current features (same order), emptying the delta
/// and the tombstones; answers do not change. Under the default policy (`.automatic`) an edit compacts when
/// the pending edits (delta slots, live or replaced, plus tombstones) exceed `max(1024, n / 64)` for a base of
/// n features: the scan of the delta then stays a small fraction of a query's cost, and the rebuild's
/// O(n log n) is spread over at least n / 64 edits (O(64 log n) amortised per edit).
///
/// A value type: copies share storage until one of them is edited (copy on write), so a copy handed to other
/// threads is read without locks while the original takes edits.
public struct DynamicFeatureIndex: Sendable {
    /// When edits fold the delta into a fresh base by themselves.
    public enum CompactionPolicy: Hashable, Sendable {
        /// Compact when pending edits exceed `max(1024, n / 64)` for a base of n features.
        case automatic
        /// Compact when pending edits exceed the given number.
        case afterPendingEdits(Int)
        /// Only `compact()` compacts.
        case manual
    }

    /// The static part, built at the last compaction.
    let base: FeatureIndex
    /// Base position by id, for every base feature (tombstoned or not); unchanged until the next compaction.
    let baseIDs: [String: Int]
    /// One bit per base position: bit `p % 64` of word `p / 64` is set when base feature `p` is removed or replaced.
    private(set) var tombstones: ContiguousArray<UInt64>
    /// The number of set bits in `tombstones`.
    private(set) var tombstoneCount: Int
    /// Features upserted since the last compaction, in upsert order; nil where since removed or replaced.
    private(set) var delta: ContiguousArray<Feature?>
    /// Delta slot by id, for the live delta features.
    private(set) var deltaIDs: [String: Int]
    /// The delta's geometry, flat for the scans: per slot `DeltaGeometry.stride` values (latitude, longitude,
    /// cos latitude, radius in metres or 0 when none); the latitude is NaN where the slot is dead.
    private(set) var deltaGeometry: ContiguousArray<Double>
    /// The delta slots whose feature had a shape when upserted, ascending (some since dead): the only slots the
    /// shape queries read, so that scans of points never decode a delta feature for its shape.
    private(set) var deltaShapeSlots: ContiguousArray<Int>
    /// When edits compact by themselves; `.automatic` by default.
    public var compactionPolicy: CompactionPolicy

    /// Builds the index over `features`, as if each were upserted in turn into an empty index: when an id
    /// repeats, the last occurrence wins and keeps its position.
    /// - Complexity: O(n log n).
    public init(_ features: [Feature], compactionPolicy: CompactionPolicy = .automatic) {
        var positions: [String: Int] = [:]
        positions.reserveCapacity(features.count)
        var hasDuplicates = false
        for (position, feature) in features.enumerated() {
            if positions.updateValue(position, forKey: feature.id) != nil { hasDuplicates = true }
        }
        var unique = features
        if hasDuplicates {
            unique = features.indices.lazy.filter { positions[features[$0].id] == $0 }.map { features[$0] }
            positions.removeAll(keepingCapacity: true)
            for (position, feature) in unique.enumerated() { positions[feature.id] = position }
        }
        base = FeatureIndex(unique)
        baseIDs = positions
        tombstones = ContiguousArray(repeating: 0, count: (unique.count + 63) / 64)
        tombstoneCount = 0
        delta = []
        deltaIDs = [:]
        deltaGeometry = []
        deltaShapeSlots = []
        self.compactionPolicy = compactionPolicy
        #if DEBUG
        _checkInvariants()
        #endif
    }

    /// The number of current features.
    /// - Complexity: O(1).
    public var count: Int { base.count - tombstoneCount + deltaIDs.count }

    /// Whether the index holds no features.
    /// - Complexity: O(1).
    public var isEmpty: Bool { count == 0 }

    /// The current features in query order: live base features in base order, then live delta features in the
    /// order of their last upsert. `FeatureIndex(features)` answers every query as this index does.
    /// - Complexity: O(n).
    public var features: [Feature] {
        var result: [Feature] = []
        result.reserveCapacity(count)
        for position in 0..<base.count where !isRemoved(basePosition: position) { result.append(base.features[position]) }
        for case let feature? in delta { result.append(feature) }
        return result
    }

    /// The current feature with `id`, if any.
    /// - Complexity: O(1) on average (two hash lookups).
    public func feature(id: String) -> Feature? {
        if let slot = deltaIDs[id] { return delta[slot] }
        if let position = baseIDs[id], !isRemoved(basePosition: position) { return base.features[position] }
        return nil
    }

    /// Edits made since the last compaction that queries must account for: delta slots (live or replaced)
    /// plus tombstones.
    /// - Complexity: O(1).
    public var pendingEdits: Int { delta.count + tombstoneCount }

    /// The pending edits above which an edit compacts under `policy` for a base of `baseCount` features; nil
    /// for `.manual`.
    /// - Complexity: O(1).
    public static func compactionThreshold(policy: CompactionPolicy, baseCount: Int) -> Int? {
        switch policy {
        case .automatic: max(1024, baseCount / 64)
        case .afterPendingEdits(let limit): max(0, limit)
        case .manual: nil
        }
    }

    /// Inserts `feature`, or replaces the current feature with the same id (the new version moves to the end
    /// of the query order). Visible to the next query.
    /// - Complexity: O(1) amortised (hashing the id), plus a compaction's O(n log n) when the policy calls for one.
    public mutating func upsert(_ feature: Feature) {
        removeCurrent(id: feature.id)
        deltaIDs[feature.id] = delta.count
        if feature.shape != nil { deltaShapeSlots.append(delta.count) }
        delta.append(feature)
        deltaGeometry.append(feature.location.latitude)
        deltaGeometry.append(feature.location.longitude)
        deltaGeometry.append(cos(feature.location.latitude * Spherical.radiansPerDegree))
        deltaGeometry.append(feature.radiusMeters ?? 0)
        compactIfDue()
    }

    /// Removes the feature with `id`; returns whether there was one.
    /// - Complexity: O(1) amortised, plus a compaction's O(n log n) when the policy calls for one.
    @discardableResult
    public mutating func remove(id: String) -> Bool {
        guard removeCurrent(id: id) else { return false }
        compactIfDue()
        return true
    }

    /// Folds the delta and the tombstones into a fresh static base over the current features (same order),
    /// keeping the policy. Query answers do not change.
    /// - Complexity: O(n log n).
    public mutating func compact() {
        self = compacted()
    }

    /// A copy with the delta and the tombstones folded into a fresh static base (see `compact()`).
    /// - Complexity: O(n log n).
    public func compacted() -> DynamicFeatureIndex {
        DynamicFeatureIndex(features, compactionPolicy: compactionPolicy)
    }

    /// Whether base feature `position` was removed or replaced.
    @inline(__always)
    func isRemoved(basePosition position: Int) -> Bool {
        tombstones[position >> 6] & (1 << UInt64(position & 63)) != 0
    }

    /// Removes the current version of `id` without compacting; returns whether there was one.
    @discardableResult
    private mutating func removeCurrent(id: String) -> Bool {
        if let slot = deltaIDs.removeValue(forKey: id) {
            delta[slot] = nil
            deltaGeometry[DeltaGeometry.stride * slot + DeltaGeometry.latitude] = .nan
            // A delta version's base version, if any, was tombstoned when the delta version was upserted.
            return true
        }
        guard let position = baseIDs[id], !isRemoved(basePosition: position) else { return false }
        tombstones[position >> 6] |= 1 << UInt64(position & 63)
        tombstoneCount += 1
        return true
    }

    private mutating func compactIfDue() {
        if let threshold = Self.compactionThreshold(policy: compactionPolicy, baseCount: base.count), pendingEdits > threshold {
            compact()
        }
        #if DEBUG
        // The full check is O(n + d): after every edit it dominated a debug server under a steady stream of edits.
        // Every edit is checked while the index is small (up to 256 features and slots), about one in 16 past that;
        // the answers are checked against an oracle either way.
        if base.count + delta.count <= 256 || pendingEdits % 16 == 0 { _checkInvariants() }
        #endif
    }
}

/// Offsets in `DynamicFeatureIndex.deltaGeometry`.
enum DeltaGeometry {
    static let stride = 4
    static let latitude = 0
    static let longitude = 1
    static let cosLatitude = 2
    static let radiusMeters = 3
}

/// One result of a `DynamicFeatureIndex` query: the feature itself (stable across edits and compactions,
/// unlike a position) and, for queries that measure, its distance.
public struct DynamicHit: Hashable, Sendable {
    /// The feature found.
    public let feature: Feature
    /// The distance from the query point in metres (nil for box and geohash queries).
    public let distanceMeters: Double?

    /// Creates a hit.
    /// - Complexity: O(1).
    public init(feature: Feature, distanceMeters: Double?) {
        self.feature = feature
        self.distanceMeters = distanceMeters
    }

    /// The feature's id.
    /// - Complexity: O(1).
    public var id: String { feature.id }
}
