import CairnCore

/// Seeded stand-ins for the GeoNames towns the data generator derives from: `town-0`, `town-1`, … named
/// `Town 0`, `Town 1`, …, at latitudes -60…70 and any longitude.
public enum SyntheticTowns {
    /// `count` towns placed by `seed`.
    public static func make(count: Int, seed: UInt64) throws -> [Feature] {
        var random = SplitMix64(seed: seed)
        return try (0..<count).map { n in
            try Feature(id: "town-\(n)", kind: .place,
                        location: Coordinate(latitude: random.uniform(-60...70), longitude: random.uniform(-180...180)),
                        attributes: ["name": .string("Town \(n)")])
        }
    }
}
