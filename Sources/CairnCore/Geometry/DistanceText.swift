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
        // The common case, a bare number of metres, without building any intermediate string.
        let string = String(text)
        if let last = string.utf8.last, last >= 48, last <= 57 {
            guard let value = Double(string), value.isFinite, value >= 0 else { return nil }
            return value
        }
        let trimmed = string.lowercased().filter { $0 != " " }
        for (suffix, scale) in units where trimmed.hasSuffix(suffix) {
            guard let value = Double(trimmed.dropLast(suffix.count)), value.isFinite, value >= 0 else { return nil }
            let meters = value * scale
            return meters.isFinite ? meters : nil
        }
        guard let value = Double(trimmed), value.isFinite, value >= 0 else { return nil }
        return value
    }

    /// Unit suffixes and their size in metres; `km` before `m` so the longer suffix wins.
    private static let units: [(suffix: String, scale: Double)] = [("km", 1000), ("mi", metersPerMile), ("ft", metersPerFoot), ("m", 1)]
}
