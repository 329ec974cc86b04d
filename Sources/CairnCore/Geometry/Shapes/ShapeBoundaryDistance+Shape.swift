extension ShapeBoundaryDistance {
    /// The geodesic distance in metres from `point` to `shape` itself, the distance `around` and `nearest` measure:
    /// 0 when a polygon covers the point (`Shape.covers`: the boundary and a hole's edge inside), else the distance
    /// to the nearest point of the boundary (`meters(from:to:)`: a line's nearest edge, a MultiPoint's nearest
    /// point). WGS84, within `toleranceMeters`.
    /// - Complexity: O(v) for v vertices for the containment test, then as `meters(from:to:)`.
    public static func metersToShape(from point: Coordinate, to shape: Shape) -> Double {
        // Containment first: inside, the boundary search would measure to the rim, and covers is the cheaper test.
        if shape.kind.isAreal, shape.covers(point) { return 0 }
        return meters(from: point, to: shape)
    }
}

extension ShapeBoundaryDistance {
    /// A lower bound in metres on `metersToShape(from: point, to: shape)`: the smallest `lowerBoundMeters(from:to:)`
    /// over the extents of the shape's parts (a shape split at ±180 is bounded part by part, not by a box as wide as
    /// the map). For a shape outside an index, such as a `DynamicFeatureIndex`'s delta.
    /// - Complexity: O(v) for v vertices.
    static func lowerBoundMeters(from point: Coordinate, toPartsOf shape: Shape) -> Double {
        var entries: [ShapeExtentIndex.Entry] = []
        shape.appendPartExtents(item: 0, to: &entries)
        return entries.reduce(Double.infinity) { bound, part in
            min(bound, lowerBoundMeters(from: point, to: BoundingBox(unchecked: part.west, part.south, part.east, part.north)))
        }
    }
}
