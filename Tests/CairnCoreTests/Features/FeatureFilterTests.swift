import CairnCore
import Testing

@Suite struct FeatureFilterTests {
    let park: Feature
    let trail: Feature

    init() throws {
        let here = try Coordinate(latitude: 60.17, longitude: 24.94)
        park = try Feature(id: "p", kind: .park, location: here, radiusMeters: 200,
                           attributes: ["fenced": .bool(true), "hunting": .bool(false), "rating": .number(4.5),
                                        "name": .string("Kaivopuisto"), "amenities": .set(["swimming", "trails"])])
        trail = try Feature(id: "t", kind: .trailhead, location: here,
                            attributes: ["difficulty": .string("casual"), "lengthMiles": .number(2.5)])
    }

    func accepts(_ filters: [String], kinds: Set<FeatureKind> = [], _ feature: Feature) throws -> Bool {
        try FeatureFilter(kinds: kinds, predicates: filters.map { try AttributePredicate(parsing: $0) }).matches(feature)
    }

    @Test func comparisonsAreTyped() throws {
        #expect(try accepts(["fenced=true"], park))
        #expect(try !accepts(["fenced=false"], park))
        #expect(try accepts(["fenced", "!hunting"], park))
        #expect(try !accepts(["hunting"], park))
        #expect(try accepts(["rating>=4.5", "rating<5", "rating!=3"], park))
        #expect(try !accepts(["rating>4.5"], park))
        #expect(try accepts(["amenities~swimming"], park))
        #expect(try !accepts(["amenities~agility"], park))
        #expect(try accepts(["radiusMeters=200"], park))
        #expect(try accepts(["difficulty=casual", "lengthMiles<3"], trail))
        #expect(try !accepts(["difficulty=moderate"], trail))
    }

    @Test func absentAttributesFailExceptNegations() throws {
        #expect(try !accepts(["fenced"], trail))
        #expect(try accepts(["!fenced"], trail))
        #expect(try accepts(["fenced!=true"], trail))
        #expect(try !accepts(["rating>0"], trail))
        #expect(try !accepts(["rating>abc"], park)) // a value of the wrong type never matches
        #expect(try !accepts(["rating>=nan"], park)) // nor does NaN, which compares with nothing
        #expect(try !accepts(["rating<inf"], park))
    }

    @Test func kindsAndPredicatesCombine() throws {
        #expect(try accepts([], kinds: [.park], park))
        #expect(try !accepts([], kinds: [.park], trail))
        #expect(try !accepts(["fenced"], kinds: [.trailhead], park))
        #expect(FeatureFilter.all.acceptsAll)
    }

    @Test func malformedPredicatesAreRefused() {
        #expect(throws: FilterError.self) { try AttributePredicate(parsing: "=true") }
        #expect(throws: FilterError.self) { try AttributePredicate(parsing: "  ") }
        #expect(throws: FilterError.self) { try AttributePredicate(parsing: "!") }
    }
}
