/// Distances in text, as people type them: `500`, `500m`, `1.2km`, `3mi`, `250ft`.
public enum DistanceText {
    /// Metres in one international mile.
    public static let metersPerMile = 1_609.344
    /// Metres in one international foot.
    public static let metersPerFoot = 0.3048

    /// Parses a distance and returns it in metres; a bare number is metres. Nil when the text is not a finite,
    /// non-negative distance with a known unit (`m`, `km`, `mi`, `ft`).
    /// - Complexity: O(n).
    public static func meters(from text: some StringProtocol) -> Double? {
        let trimmed = text.lowercased().filter { $0 != " " }
        let units: [(suffix: String, scale: Double)] = [("km", 1000), ("mi", metersPerMile), ("ft", metersPerFoot), ("m", 1)]
        var number = Substring(trimmed)
        var scale = 1.0
        for unit in units where trimmed.hasSuffix(unit.suffix) {
            number = trimmed.dropLast(unit.suffix.count)
            scale = unit.scale
            break
        }
        guard let value = Double(number), value.isFinite, value >= 0 else { return nil }
        return value * scale
    }
}
