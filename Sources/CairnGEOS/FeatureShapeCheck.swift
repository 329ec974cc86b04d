import CairnCore

/// The one validity rule for a feature's polygons wherever features come in (`cairn import` into SQLite or
/// PostgreSQL, the server's `PUT` and `POST`): a Polygon or MultiPolygon must be valid by GEOS's rules
/// (`ShapeValidator`); with `makeValid` an invalid one is repaired instead (GEOS's make-valid), without it refused
/// with GEOS's reason. Points and lines pass without GEOS.
///
/// The validator (one GEOS context) is made at the first polygon, so a run of points never opens libgeos_c. Not
/// `Sendable`, as the context: one check per thread (an import has one, a request makes its own).
public struct FeatureShapeCheck {
    /// Whether an invalid polygon is repaired instead of refused.
    public let makeValid: Bool
    private var validator: ShapeValidator?

    /// A check that repairs (`makeValid`) or refuses invalid polygons.
    /// - Complexity: O(1).
    public init(makeValid: Bool) {
        self.makeValid = makeValid
    }

    /// `feature` when its shape is valid (or not a polygon), the feature repaired with `makeValid` (its location
    /// moved to the repaired shape's representative point when it was the old one's), or why it is refused.
    /// - Throws: `GEOSError` when a polygon must be checked and GEOS cannot be used (libgeos_c not installed).
    /// - Complexity: O(n log n) in the shape's positions for a polygon (GEOS's noding); O(1) otherwise.
    public mutating func checked(_ feature: Feature) throws(GEOSError) -> Result<Feature, InvalidShape> {
        guard let shape = feature.shape, shape.kind.isAreal else { return .success(feature) }
        let checker: ShapeValidator
        if let validator {
            checker = validator
        } else {
            checker = try ShapeValidator()
            validator = checker
        }
        return Self.checked(feature, validator: checker, makeValid: makeValid)
    }

    /// What `checked(_:)` returns, with the caller's `validator` (a caller that keeps its own context per thread).
    /// - Complexity: O(n log n) in the shape's positions for a polygon; O(1) otherwise.
    public static func checked(_ feature: Feature, validator checker: ShapeValidator,
                               makeValid: Bool) -> Result<Feature, InvalidShape> {
        guard let shape = feature.shape, shape.kind.isAreal else { return .success(feature) }
        guard let problem = checker.problem(in: shape) else { return .success(feature) }
        guard makeValid else { return .failure(InvalidShape(kind: shape.kind, reason: problem, repairFailure: nil)) }
        do {
            let repaired = try checker.repaired(shape)
            let location = feature.location == shape.representativePoint ? repaired.representativePoint : feature.location
            return .success(try Feature(id: feature.id, kind: feature.kind, location: location,
                                        radiusMeters: feature.radiusMeters, timeWindow: feature.timeWindow,
                                        attributes: feature.attributes, shape: repaired))
        } catch {
            return .failure(InvalidShape(kind: shape.kind, reason: problem, repairFailure: "\(error)"))
        }
    }
}

extension FeatureShapeCheck {
    /// What an import's summary line adds after `imported N, rejected M` for polygons repaired by `--make-valid`
    /// and coordinates taken as the edge of the range (`Shape.clampedVertexCount`): empty when there were none.
    /// - Complexity: O(1).
    public static func summaryNotes(repaired: Int, clamped: Int) -> String {
        var text = ""
        if repaired > 0 { text += " (\(repaired) invalid polygons repaired by --make-valid)" }
        if clamped > 0 { text += " (\(clamped) coordinates within 1e-9 degrees outside the valid range taken as its edge)" }
        return text
    }
}

/// A polygon GEOS finds invalid, with GEOS's reason, and when a repair was asked for, why it failed.
public struct InvalidShape: Error, Hashable, Sendable {
    /// The shape's kind (Polygon or MultiPolygon).
    public let kind: ShapeKind
    /// GEOS's reason: `Self-intersection[25 0.5]`.
    public let reason: String
    /// Why make-valid could not repair it, nil when no repair was asked for.
    public let repairFailure: String?

    /// What an import says of it, naming the record's place in its file (a feature's number in a
    /// FeatureCollection): `field 'geometry': invalid Polygon (record 3 of the file): Self-intersection[...];
    /// --make-valid repairs it`.
    /// - Complexity: O(reason length).
    public func importReason(record: Int) -> String {
        let invalid = "field 'geometry': invalid \(kind.name) (record \(record) of the file): \(reason)"
        guard let repairFailure else { return invalid + "; --make-valid repairs it" }
        return invalid + "; --make-valid could not repair it: \(repairFailure)"
    }
}
