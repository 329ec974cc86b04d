/// The features of a `FeatureIndex` by position: an array in memory, or records of a mapped snapshot decoded one
/// at a time on access, so a query on a mapped index decodes only the features it returns or filters.
///
/// Read it as any random-access collection: `index.features[hit.item]`, `for feature in index.features`.
/// `Array(index.features)` decodes every feature.
public struct FeatureList: RandomAccessCollection, Sendable {
    private enum Storage: Sendable {
        case decoded([Feature])
        case mapped(MappedFeatureTable)
    }

    private let storage: Storage

    /// The features of `array`, in order.
    /// - Complexity: O(1).
    public init(_ array: [Feature]) { storage = .decoded(array) }

    /// The features of a mapped snapshot, decoded on access.
    /// - Complexity: O(1).
    init(mapped table: MappedFeatureTable) { storage = .mapped(table) }

    /// 0.
    /// - Complexity: O(1).
    public var startIndex: Int { 0 }

    /// The number of features.
    /// - Complexity: O(1).
    public var endIndex: Int {
        switch storage {
        case .decoded(let array): array.count
        case .mapped(let table): table.count
        }
    }

    /// The feature at `position` (decoded from the snapshot when mapped).
    /// - Complexity: O(1) in memory; O(a) for a mapped feature with a attributes.
    public subscript(position: Int) -> Feature {
        switch storage {
        case .decoded(let array): return array[position]
        case .mapped(let table):
            // The table reads the file without bounds checks of its own: trap here, as an array would.
            precondition(position >= 0 && position < table.count, "FeatureList index \(position) out of range 0..<\(table.count)")
            return table.feature(at: position)
        }
    }

    /// The kind of the feature at `position`, without decoding the rest of a mapped feature.
    /// - Complexity: O(1).
    public func kind(at position: Int) -> FeatureKind {
        switch storage {
        case .decoded(let array): return array[position].kind
        case .mapped(let table):
            precondition(position >= 0 && position < table.count, "FeatureList index \(position) out of range 0..<\(table.count)")
            return table.kind(at: position)
        }
    }

    /// Calls `body(position, shape)` for each feature with a shape, in position order; a mapped list reads only
    /// the records and WKB of those features.
    /// - Complexity: O(n) plus O(b) for the shapes' b bytes.
    func forEachShape(_ body: (Int, Shape) -> Void) {
        switch storage {
        case .decoded(let array):
            for (position, feature) in array.enumerated() { if let shape = feature.shape { body(position, shape) } }
        case .mapped(let table):
            table.forEachShape(body)
        }
    }

    /// The first damage found in the mapped snapshot's blocks while decoding (see `FeatureIndex.snapshotDamage`).
    /// - Complexity: O(1).
    var snapshotDamage: SnapshotError? {
        if case .mapped(let table) = storage { return table.verifier.damage }
        return nil
    }

    /// Whether the features are decoded from a mapped snapshot on access.
    /// - Complexity: O(1).
    public var isMapped: Bool {
        if case .mapped = storage { return true }
        return false
    }
}

extension FeatureList: Equatable {
    /// The same features in the same order, whatever each list's storage.
    /// - Complexity: O(n).
    public static func == (lhs: FeatureList, rhs: FeatureList) -> Bool { lhs.elementsEqual(rhs) }
}
