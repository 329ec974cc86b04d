/// What `ClusterIndex.expansionZoom(of:)` answers: the zoom at which a cluster splits, or that it never does.
public enum ClusterExpansion: Hashable, Sendable, CustomStringConvertible {
    /// The cluster splits into several entries at this zoom (at most `maxZoom + 1`).
    case zoom(Int)
    /// The cluster holds points at identical coordinates only: it never splits, at any zoom. Show its leaves as a list.
    case identicalPoints

    public var description: String {
        switch self {
        case .zoom(let z): String(z)
        case .identicalPoints: "never (identical points)"
        }
    }
}
