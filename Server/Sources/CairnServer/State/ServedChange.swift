import CairnCore

/// One change of the served features, as a write through the server or a change set of the store's feed gives it:
/// remove `removedIDs`, then append `upserted` in order (an edited feature moves to the end of the order, as in
/// `DynamicFeatureIndex`), each with its store rowid (`/features` pages by it).
struct ServedChange: Sendable {
    /// Ids no longer stored (an id not served is ignored).
    let removedIDs: [String]
    /// Features stored anew, in the order they take.
    let upserted: [Feature]
    /// Their rowids, one per `upserted` feature.
    let rowids: [Int64]
}
