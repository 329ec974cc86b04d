/// Why a cluster query was refused.
public enum ClusterError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No cluster of this index has the id (it may come from another build, or an edit removed it).
    case unknownCluster(ClusterID)
    /// A point position outside the input.
    case pointOutOfRange(Int, count: Int)

    public var description: String {
        switch self {
        case .unknownCluster(let id): "no cluster with id \(id) in this index (ids hold for one build: query again after edits)"
        case .pointOutOfRange(let i, let n): "point \(i) is out of range; the index holds \(n) points"
        }
    }
}
