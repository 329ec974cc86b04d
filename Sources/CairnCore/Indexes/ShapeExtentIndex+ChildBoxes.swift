extension ShapeExtentIndex {
    /// Floats per parent in `childBoxes`: 16 wests, 16 souths, 16 easts, 16 norths.
    static let childBoxStride = 4 * nodeSize

    /// The children's boxes of every parent (levels ≥ 1, in node order from `levelStarts[1]`) as `Float`, column by
    /// column (`childBoxStride` floats a parent), a missing child (the last parent of a level) as NaN, which meets
    /// nothing.
    ///
    /// Why `Float` is exact as a pre-filter: rounding to the nearest `Float` never decreases (x ≤ y gives
    /// Float(x) ≤ Float(y)), so every comparison the double test passes, the test of the rounded box against the
    /// rounded query passes too; a child it lets through wrongly is only opened for nothing, and leaves are still
    /// decided on their `Double` box. Half the bytes of the doubles, and four SIMD comparisons test all 16 children.
    /// - Complexity: O(n) for n nodes.
    static func childBoxes(boxes: ContiguousArray<Double>, levelStarts: [Int]) -> ContiguousArray<Float> {
        guard levelStarts.count > 2 else { return [] }
        let parents = levelStarts[levelStarts.count - 1] - levelStarts[1]
        var columns = ContiguousArray<Float>(repeating: .nan, count: parents * childBoxStride)
        columns.withUnsafeMutableBufferPointer { columns in
            for level in 1..<levelStarts.count - 1 {
                for parent in levelStarts[level]..<levelStarts[level + 1] {
                    let group = (parent - levelStarts[1]) * childBoxStride
                    let first = levelStarts[level - 1] + (parent - levelStarts[level]) * nodeSize
                    for child in first..<min(first + nodeSize, levelStarts[level]) {
                        for side in 0..<4 { columns[group + side * nodeSize + child - first] = Float(boxes[4 * child + side]) }
                    }
                }
            }
        }
        return columns
    }

    /// Bit `i` set when child `i` of the parent whose columns start at `group` meets the query box (`Float`
    /// bounds, splatted; edges inclusive).
    /// - Complexity: O(1): four SIMD comparisons of 16 lanes.
    @inline(__always)
    static func meetingChildren(_ group: UnsafePointer<Float>, west: SIMD16<Float>, south: SIMD16<Float>,
                                east: SIMD16<Float>, north: SIMD16<Float>) -> UInt64 {
        let raw = UnsafeRawPointer(group)
        let wests = raw.loadUnaligned(as: SIMD16<Float>.self)
        let souths = raw.loadUnaligned(fromByteOffset: 64, as: SIMD16<Float>.self)
        let easts = raw.loadUnaligned(fromByteOffset: 128, as: SIMD16<Float>.self)
        let norths = raw.loadUnaligned(fromByteOffset: 192, as: SIMD16<Float>.self)
        let meets = (wests .<= east) .& (easts .>= west) .& (souths .<= north) .& (norths .>= south)
        // Lanes to bytes of 0 or 1; the product gathers byte i of each half into bit 56 + i (the partial products
        // below bit 56 never share a bit, so no carry reaches it): the standard library has no movemask.
        let bytes = SIMD16<UInt8>(truncatingIfNeeded: SIMD16<Int32>(repeating: 0).replacing(with: 1, where: meets))
        let halves = unsafeBitCast(bytes, to: SIMD2<UInt64>.self)
        let gather: UInt64 = 0x0102_0408_1020_4080
        return (halves[0] &* gather) >> 56 | ((halves[1] &* gather) >> 56) << 8
    }
}
