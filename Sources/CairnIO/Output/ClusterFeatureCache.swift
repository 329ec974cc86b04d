import CairnCore

/// Keeps the GeoJSON of single clustering entries (a cluster or a lone point) so that answers of one hierarchy
/// reuse them: within one hierarchy and one id offset an entry's feature never changes, and a map's answers (the
/// viewports of a zoom, a cluster's children) repeat most of the entries of the answers before them.
///
/// `ClusterWriter.encodeCollection` asks for an entry's bytes before encoding it and offers what it encoded. A
/// cache must be dropped with its hierarchy: after an edit, ids and aggregates mean other things.
public protocol ClusterFeatureCache: Sendable {
    /// The feature kept for `content` (one line, without the separator), or nil.
    /// - Complexity: expected O(1) plus the copy the caller makes.
    func feature(for content: ClusterNode.Content) -> [UInt8]?

    /// Offers `bytes` as the feature of `content`; the cache may decline (for example when it is full).
    /// - Complexity: expected O(1) plus one copy of `bytes`.
    func keep(_ bytes: ArraySlice<UInt8>, for content: ClusterNode.Content)
}
