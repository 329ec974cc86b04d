import Atomics

/// The checks of a mapped snapshot's circle sections (`CIDS`, `CCRD`, `CVAL`, `CMAX`, `CITM`), run once by the first
/// query that reads circles instead of when the file is mapped.
///
/// Only `containing` reads the circle tree, and it is most of the tree bytes a snapshot holds: verifying its blocks
/// at mapping cost a one-off `cairn bbox` or `cairn around` about a sixth of its run for sections it never reads.
/// Until the check has passed, no circle is read (the item numbers are checked to stay inside the file, as
/// `FeatureIndex(mapping:)` checks the point tree's). When it fails, `containing` answers nothing and
/// `FeatureIndex.snapshotDamage` reports why, so the caller discards the answer and rebuilds, as for a damaged
/// feature.
///
/// Thread-safe: the outcome is an atomic; two threads may run the check at once, to the same outcome.
final class MappedCircleCheck: Sendable {
    private let file: SnapshotFile
    private let tags: [UInt32]
    private let circleIds: IndexBuffer<UInt32>
    private let circleItems: IndexBuffer<UInt32>
    private let featureCount: Int
    private let outcome = ManagedAtomic<UInt8>(Outcome.unchecked.rawValue)

    private enum Outcome: UInt8 {
        case unchecked, passed, damagedBlock, circleBeyondCount, featureBeyondCount
    }

    /// A check of the circle sections `tags` of `file`, whose ids and items are read from `circleIds` and
    /// `circleItems` (views not yet verified) and must stay below the circle count and `featureCount`.
    /// - Complexity: O(1).
    init(file: SnapshotFile, tags: [UInt32], circleIds: IndexBuffer<UInt32>, circleItems: IndexBuffer<UInt32>,
         featureCount: Int) {
        self.file = file
        self.tags = tags
        self.circleIds = circleIds
        self.circleItems = circleItems
        self.featureCount = featureCount
    }

    /// Whether the circle sections may be read: their blocks match their checksums and their item numbers are in
    /// range. Checked at the first call.
    /// - Complexity: O(bytes of the circle sections) at the first call, O(1) after.
    func passes() -> Bool {
        var current = Outcome(rawValue: outcome.load(ordering: .acquiring)) ?? .unchecked
        if current == .unchecked {
            current = check()
            outcome.store(current.rawValue, ordering: .releasing)
        }
        return current == .passed
    }

    /// Why the check failed, or nil when it passed or has not run.
    /// - Complexity: O(1) (plus one block's hash to describe a damaged block).
    var damage: SnapshotError? {
        func invalid(_ section: String, _ detail: String) -> SnapshotError {
            SnapshotError(path: file.path, reason: .invalidContent(section: section, detail: detail))
        }
        switch Outcome(rawValue: outcome.load(ordering: .acquiring)) ?? .unchecked {
        case .unchecked, .passed: return nil
        case .damagedBlock: return file.verifier.damage
        case .circleBeyondCount: return invalid("CIDS", "a circle is not below the count \(circleIds.count)")
        case .featureBeyondCount: return invalid("CITM", "a feature is not below the count \(featureCount)")
        }
    }

    private func check() -> Outcome {
        for tag in tags {
            guard let range = file.sections[tag], file.verifier.verify(range) else { return .damagedBlock }
        }
        guard FeatureIndex.allBelow(circleIds, circleIds.count) else { return .circleBeyondCount }
        guard FeatureIndex.allBelow(circleItems, featureCount) else { return .featureBeyondCount }
        return .passed
    }
}
