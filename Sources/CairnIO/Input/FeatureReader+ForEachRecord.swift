import CairnCore

extension FeatureReader {
    /// Reads every record to the end of the file, in file order: each feature to `feature`, each refused record
    /// to `rejected`. The one loop of every "features from a file" (check-in reference data, `cairn generate`'s
    /// towns, the bench's places); either closure may throw to stop at a record.
    /// - Throws: `InputError` when the file cannot be read further, or what a closure throws.
    /// - Complexity: O(n) in the file's bytes, plus the closures' work.
    public func forEachRecord(_ feature: (Feature) throws -> Void, rejected: (RowRejection) throws -> Void) throws {
        while let record = try next() {
            switch record {
            case .feature(let value, _): try feature(value)
            case .rejected(let rejection): try rejected(rejection)
            }
        }
    }
}
