import CairnCore

/// Rows of a reference file as a parallel read fills them: each piece of a batch into a list of its own, the
/// lists then joined in order.
protocol ReferenceRowList: Sendable {
    /// No rows.
    init()
    /// The number of rows.
    var count: Int { get }
    /// Reserves room for `count` more rows.
    mutating func reserveCapacity(_ count: Int)
    /// Appends every row of `other`, in order.
    mutating func append(contentsOf other: Self)
}

extension CheckInPlaceRows: ReferenceRowList {}
extension CheckInEventRows: ReferenceRowList {}
