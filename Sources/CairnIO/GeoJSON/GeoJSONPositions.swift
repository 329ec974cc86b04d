import CairnCore

/// The positions of a GeoJSON geometry, read and rewritten through a coordinate transform.
///
/// The hook the import's coordinate systems use: every position of a geometry (each vertex of every ring, line and
/// part, and of a GeometryCollection's members) is transformed in one PROJ call, and the geometry rebuilt with
/// WGS84 longitude/latitude, before anything reads its shape. What reads the geometry next (a representative
/// point today, the whole shape later) sees degrees only.
enum GeoJSONPositions {
    /// The first position of a geometry (depth first), for telling whether its numbers can be degrees.
    /// - Complexity: O(d) in the nesting depth.
    static func first(in geometry: JSONValue) -> (x: Double, y: Double)? {
        if let coordinates = geometry["coordinates"] { return firstPosition(coordinates) }
        if case .array(let members)? = geometry["geometries"] {
            for member in members { if let position = first(in: member) { return position } }
        }
        return nil
    }

    private static func firstPosition(_ value: JSONValue) -> (x: Double, y: Double)? {
        guard case .array(let values) = value, let head = values.first else { return nil }
        if values.count >= 2, case .number(let x) = head, case .number(let y) = values[1] { return (x, y) }
        return firstPosition(head)
    }

    /// `geometry` with every position transformed by `transform`, or the first position it cannot transform.
    /// Extra ordinates (an elevation) are kept as they are.
    /// - Complexity: O(n) in the positions, one call into PROJ.
    static func transformed(_ geometry: JSONValue, by transform: CoordinateTransform)
        -> Result<JSONValue, UntransformablePosition> {
        var xs: [Double] = [], ys: [Double] = []
        collect(geometry, into: &xs, &ys)
        guard !xs.isEmpty else { return .success(geometry) }
        let (sourceX, sourceY) = (xs, ys)
        transform.transform(x: &xs, y: &ys)
        if let bad = xs.firstIndex(where: { !$0.isFinite }) { return .failure(UntransformablePosition(x: sourceX[bad], y: sourceY[bad])) }
        var next = 0
        return .success(rebuild(geometry, xs, ys, &next))
    }

    private static func collect(_ geometry: JSONValue, into xs: inout [Double], _ ys: inout [Double]) {
        guard case .object(let members) = geometry else { return }
        for member in members {
            if member.key == "coordinates" { collectPositions(member.value, &xs, &ys) }
            if member.key == "geometries", case .array(let parts) = member.value {
                for part in parts { collect(part, into: &xs, &ys) }
            }
        }
    }

    private static func collectPositions(_ value: JSONValue, _ xs: inout [Double], _ ys: inout [Double]) {
        guard case .array(let values) = value else { return }
        if values.count >= 2, case .number(let x) = values[0], case .number(let y) = values[1] {
            xs.append(x)
            ys.append(y)
            return
        }
        for element in values { collectPositions(element, &xs, &ys) }
    }

    private static func rebuild(_ geometry: JSONValue, _ xs: [Double], _ ys: [Double], _ next: inout Int) -> JSONValue {
        guard case .object(let members) = geometry else { return geometry }
        return .object(members.map { member in
            switch member.key {
            case "coordinates":
                return JSONMember(key: member.key, value: rebuildPositions(member.value, xs, ys, &next))
            case "geometries":
                guard case .array(let parts) = member.value else { return member }
                return JSONMember(key: member.key, value: .array(parts.map { rebuild($0, xs, ys, &next) }))
            default:
                return member
            }
        })
    }

    private static func rebuildPositions(_ value: JSONValue, _ xs: [Double], _ ys: [Double], _ next: inout Int) -> JSONValue {
        guard case .array(var values) = value else { return value }
        if values.count >= 2, case .number = values[0], case .number = values[1] {
            values[0] = .number(xs[next])
            values[1] = .number(ys[next])
            next += 1
            return .array(values)
        }
        return .array(values.map { rebuildPositions($0, xs, ys, &next) })
    }
}

/// A position a transform cannot bring into degrees, as the input gave it.
struct UntransformablePosition: Error {
    let x: Double
    let y: Double
}
