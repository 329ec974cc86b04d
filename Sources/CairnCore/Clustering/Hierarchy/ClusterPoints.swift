/// The input points of a `ClusterIndex` in input order: coordinates, their projections and the values aggregated.
struct ClusterPoints: Sendable {
    /// The input coordinates.
    var coordinates: [Coordinate] = []
    /// Web Mercator positions as the options' precision holds them (see `x(longitude:precision:)`).
    var positions: [ClusterPosition] = []
    /// Values of the options' numeric attributes, `numericCount` per point; NaN where absent.
    var numbers: [Double] = []
    /// Category code per point (an index into `categoryNames`), -1 where absent; empty without a category attribute.
    var categories: [Int32] = []
    /// Category values by code, in order of first appearance.
    var categoryNames: [String] = []
    /// Codes by category value.
    var categoryCodes: [String: Int32] = [:]
    /// How many numeric attributes each point carries.
    let numericCount: Int
    /// Whether a category attribute is counted.
    let countsCategories: Bool
    /// How precisely `positions` are held.
    let precision: ClusterPrecision

    init(coordinates: [Coordinate], options: ClusterOptions) {
        numericCount = options.numericAttributes.count
        countsCategories = options.categoryAttribute != nil
        precision = options.precision
        // As `append` one by one (no values, no category), in bulk; an exact copy of the coordinates, as appends
        // into reserved arrays gave.
        self.coordinates = coordinates.withUnsafeBufferPointer { Array($0) }
        positions = coordinates.map { [precision] in Self.position(of: $0, precision: precision) }
        numbers = [Double](repeating: .nan, count: coordinates.count * numericCount)
        if countsCategories { categories = [Int32](repeating: -1, count: coordinates.count) }
    }

    /// A coordinate's Web Mercator position as the clustering holds it (`x(longitude:precision:)`,
    /// `y(latitude:precision:)`).
    /// - Complexity: O(1).
    static func position(of coordinate: Coordinate, precision: ClusterPrecision) -> ClusterPosition {
        ClusterPosition(x: x(longitude: coordinate.longitude, precision: precision), y: y(latitude: coordinate.latitude, precision: precision))
    }

    /// Web Mercator x as the clustering holds it: rounded to the precision, in [0, 1) (longitude 180, and a
    /// longitude that rounds to it, is 0: the same meridian as -180).
    /// - Complexity: O(1).
    @inline(__always)
    private static func x(longitude: Double, precision: ClusterPrecision) -> Double {
        let px = precision.rounded(WebMercator.x(longitude: longitude))
        return px >= 1 ? 0 : px
    }

    /// Web Mercator y in [0, 1] as the clustering holds it: rounded to the precision.
    /// - Complexity: O(1).
    @inline(__always)
    private static func y(latitude: Double, precision: ClusterPrecision) -> Double {
        precision.rounded(WebMercator.y(latitude: latitude))
    }

    /// Whether two input coordinates are the same place (longitudes 180 and -180 are one meridian): such points
    /// are grouped and never split. Points at different coordinates stay apart above `maxZoom` even where their
    /// projections round to the same position.
    /// - Complexity: O(1).
    @inline(__always)
    static func sameLocation(_ a: Coordinate, _ b: Coordinate) -> Bool { locationKey(a) == locationKey(b) }

    /// A coordinate as a place: latitude, then longitude with 180 read as -180 (one meridian). Sorting by it puts
    /// points at the same location next to each other.
    /// - Complexity: O(1).
    @inline(__always)
    static func locationKey(_ c: Coordinate) -> (Double, Double) {
        (c.latitude, c.longitude == 180 ? -180 : c.longitude)
    }

    init(features: [Feature], options: ClusterOptions) {
        numericCount = options.numericAttributes.count
        countsCategories = options.categoryAttribute != nil
        precision = options.precision
        reserve(features.count)
        for f in features { append(f, options: options) }
    }

    /// The points at `indices` (ascending), in that order, sharing category codes.
    func subset(_ indices: [Int]) -> ClusterPoints {
        var result = self
        result.coordinates = indices.map { coordinates[$0] }
        result.positions = indices.map { positions[$0] }
        result.numbers = []
        result.numbers.reserveCapacity(indices.count * numericCount)
        for i in indices { result.numbers.append(contentsOf: numbers[i * numericCount ..< (i + 1) * numericCount]) }
        if countsCategories { result.categories = indices.map { categories[$0] } }
        return result
    }

    private mutating func reserve(_ n: Int) {
        coordinates.reserveCapacity(n)
        positions.reserveCapacity(n)
        numbers.reserveCapacity(n * numericCount)
        if countsCategories { categories.reserveCapacity(n) }
    }

    var count: Int { coordinates.count }

    var memoryBytes: Int {
        coordinates.capacity * 16 + positions.capacity * MemoryLayout<ClusterPosition>.stride + numbers.capacity * 8 + categories.capacity * 4
    }

    /// The values a feature contributes, per the options.
    static func values(of feature: Feature, options: ClusterOptions) -> (numbers: [Double], category: String?) {
        let numbers = options.numericAttributes.map { name -> Double in
            if case .number(let v) = feature.attributes[name] { return v }
            if name == "radiusMeters", let r = feature.radiusMeters { return r }
            return .nan
        }
        var category: String?
        if let name = options.categoryAttribute {
            if name == "kind" {
                category = feature.kind.rawValue
            } else if let value = feature.attributes[name] {
                category = value.description
            }
        }
        return (numbers, category)
    }

    mutating func append(_ feature: Feature, options: ClusterOptions) {
        let v = Self.values(of: feature, options: options)
        append(feature.location, numbers: v.numbers, category: v.category)
    }

    mutating func append(_ coordinate: Coordinate, numbers values: [Double], category: String?) {
        insert(coordinate, numbers: values, category: category, at: count)
    }

    mutating func insert(_ coordinate: Coordinate, numbers values: [Double], category: String?, at index: Int) {
        coordinates.insert(coordinate, at: index)
        positions.insert(Self.position(of: coordinate, precision: precision), at: index)
        var row = [Double](repeating: .nan, count: numericCount)
        for i in 0..<min(numericCount, values.count) { row[i] = values[i] }
        numbers.insert(contentsOf: row, at: index * numericCount)
        if countsCategories { categories.insert(code(for: category), at: index) }
    }

    mutating func remove(at index: Int) {
        coordinates.remove(at: index)
        positions.remove(at: index)
        numbers.removeSubrange(index * numericCount ..< (index + 1) * numericCount)
        if countsCategories { categories.remove(at: index) }
    }

    mutating func move(at index: Int, to coordinate: Coordinate) {
        coordinates[index] = coordinate
        positions[index] = Self.position(of: coordinate, precision: precision)
    }

    /// The code of a category value, a new one for a value not seen before (-1 for none).
    /// - Complexity: O(1) expected.
    mutating func code(for category: String?) -> Int32 {
        guard let category else { return -1 }
        if let c = categoryCodes[category] { return c }
        let c = Int32(categoryNames.count)
        categoryNames.append(category)
        categoryCodes[category] = c
        return c
    }
}
