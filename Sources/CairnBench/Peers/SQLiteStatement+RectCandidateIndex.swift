/// A prepared `SELECT id … WHERE maxLon >= ?1 AND minLon <= ?2 AND maxLat >= ?3 AND minLat <= ?4` is a
/// rectangle index.
extension SQLiteStatement: RectCandidateIndex {
    func collect(_ rect: BenchRect, into candidates: inout [Int]) {
        forEachInteger(rect.west, rect.east, rect.south, rect.north) { candidates.append($0) }
    }
}
