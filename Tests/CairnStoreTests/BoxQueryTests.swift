import CairnTestSupport
import CairnCore
import Testing
@testable import CairnStore

/// Brute-force oracle for `features(inBoxWest:south:east:north:)`: edges inside, `west > east` wraps around the
/// antimeridian, and longitudes 180 and -180 are the same meridian.
func bruteForceBox(_ features: [Feature], west: Double, south: Double, east: Double, north: Double) -> [String] {
    func longitudeInside(_ longitude: Double) -> Bool {
        west <= east ? (west <= longitude && longitude <= east) : (longitude >= west || longitude <= east)
    }
    return features.filter { feature in
        let lat = feature.location.latitude, lon = feature.location.longitude
        guard south <= lat, lat <= north else { return false }
        return longitudeInside(lon) || (lon == 180 && longitudeInside(-180)) || (lon == -180 && longitudeInside(180))
    }.map(\.id)
}

@Suite("FeatureStore box query")
struct BoxQueryTests {
    @Test("R*Tree box query matches brute force on seeded random points", arguments: [UInt64(1), 2, 3])
    func matchesBruteForce(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        // Coarse grid values make many points fall exactly on box edges; a few repeated coordinates and the
        // antimeridian and poles are included on purpose.
        func latitude() -> Double {
            random.next() % 4 == 0 ? Double(Int(random.next() % 37) * 5 - 90) : Double.random(in: -90...90, using: &random)
        }
        func longitude() -> Double {
            random.next() % 4 == 0 ? Double(Int(random.next() % 73) * 5 - 180) : Double.random(in: -180...180, using: &random)
        }
        var features: [Feature] = []
        for i in 0..<400 {
            if i % 50 == 49, let earlier = features.last {
                features.append(try point("p\(i)", latitude: earlier.location.latitude, longitude: earlier.location.longitude))
            } else {
                features.append(try point("p\(i)", latitude: latitude(), longitude: longitude()))
            }
        }
        features.append(try point("east-edge", latitude: 0, longitude: 180))
        features.append(try point("west-edge", latitude: 0, longitude: -180))

        try withTemporaryStore { store, _ in
            try store.upsert(features)
            try expectRTreeConsistent(store)
            var boxes: [(Double, Double, Double, Double)] = [
                (-180, -90, 180, 90), (170, -10, -170, 10), (0, 0, 0, 0), (175, -5, 180, 5), (-180, -5, -175, 5),
                (-10, -90, 10, -85), (90, 0, 90, 90),
            ]
            for _ in 0..<60 {
                let a = latitude(), b = latitude()
                boxes.append((longitude(), min(a, b), longitude(), max(a, b))) // west > east half the time: wraps
            }
            for (west, south, east, north) in boxes {
                let found = try store.features(inBoxWest: west, south: south, east: east, north: north).map(\.id)
                #expect(
                    found == bruteForceBox(features, west: west, south: south, east: east, north: north),
                    "box \(west),\(south),\(east),\(north)")
            }
        }
    }
}
