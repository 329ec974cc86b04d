import Foundation
import CairnTestSupport
@testable import CairnCore

/// SplitMix64 (Steele, Lea and Flood, 2014): a tiny seedable generator so every random test is reproducible.
struct IndexTestRandom: RandomNumberGenerator {
    private var base: SeededRandom

    init(seed: UInt64) { base = SeededRandom(seed: seed) }

    mutating func next() -> UInt64 { base.next() }

    /// Uniform in `range`.
    mutating func double(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &self) }

    /// Uniform in `range`.
    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }

    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }

    /// A coordinate that often lands on the awkward places: the antimeridian (both spellings), the poles,
    /// the equator and the prime meridian, or in a small cluster.
    mutating func awkwardCoordinate() -> Coordinate {
        var latitude = double(-90...90)
        var longitude = double(-180...180)
        switch int(0...11) {
        case 0: longitude = chance(0.5) ? 180 : -180
        case 1: longitude = chance(0.5) ? double(179...180) : double(-180 ... -179)
        case 2: latitude = chance(0.5) ? double(88...90) : double(-90 ... -88)
        case 3: latitude = chance(0.5) ? 90 : -90
        case 4: latitude = 0
        case 5: longitude = 0
        case 6: latitude = double(59.9...60.1); longitude = double(24.9...25.1)
        default: break
        }
        return Coordinate(uncheckedLatitude: latitude, longitude: longitude)
    }

    /// A data set of `count` awkward coordinates with some exact duplicates.
    mutating func awkwardPoints(_ count: Int) -> [Coordinate] {
        var points: [Coordinate] = []
        points.reserveCapacity(count)
        for _ in 0..<count {
            if !points.isEmpty, chance(0.05) {
                points.append(points[int(0...(points.count - 1))])
            } else {
                points.append(awkwardCoordinate())
            }
        }
        return points
    }

    /// A radius spread over many scales, metres: 0, a metre, a city, a country, a hemisphere.
    mutating func radiusMeters() -> Double {
        switch int(0...9) {
        case 0: 0
        case 1: double(0...10)
        case 2: 20_100_000
        default: pow(10, double(1...6.9))
        }
    }
}

/// The brute-force oracle every index is compared with: plain loops over all points.
enum Oracle {
    static func box(_ points: [Coordinate], _ box: BoundingBox) -> [Int] {
        points.indices.filter { box.contains(points[$0]) }
    }

    static func within(_ points: [Coordinate], _ radiusMeters: Double, of center: Coordinate, model: DistanceModel) -> [Int] {
        points.indices.filter { distanceMeters(from: center, to: points[$0], model: model) <= radiusMeters }
    }

    static func neighbors(_ points: [Coordinate], _ radiusMeters: Double, of center: Coordinate, model: DistanceModel) -> [Neighbor] {
        points.indices.map { Neighbor(item: $0, distanceMeters: distanceMeters(from: center, to: points[$0], model: model)) }
            .filter { $0.distanceMeters <= radiusMeters }
            .sorted()
    }

    static func nearest(_ points: [Coordinate], to point: Coordinate, count: Int, maxDistance: Double?, model: DistanceModel) -> [Neighbor] {
        // Keep the best `count` seen so far in a sorted array (insertion), ordered by distance then item.
        var best: [Neighbor] = []
        guard count > 0 else { return best }
        for item in points.indices {
            let candidate = Neighbor(item: item, distanceMeters: distanceMeters(from: point, to: points[item], model: model))
            guard candidate.distanceMeters <= (maxDistance ?? .infinity) else { continue }
            if best.count == count, let worst = best.last, !(candidate < worst) { continue }
            var position = best.count
            while position > 0, candidate < best[position - 1] { position -= 1 }
            best.insert(candidate, at: position)
            if best.count > count { best.removeLast() }
        }
        return best
    }

    static func containing(_ circles: [Circle], _ point: Coordinate, model: DistanceModel) -> [Int] {
        circles.indices.filter { circles[$0].contains(point, model: model) }
    }
}

/// The real data: GeoNames places with population ≥ 500, read from the project's `Data/` folder.
enum RealData {
    /// The cities' coordinates (columns `latitude`, `longitude` of `geonameid,name,latitude,longitude,...`).
    /// Lines end in CRLF; names may be quoted and contain commas.
    static func cityCoordinates() throws -> [Coordinate] {
        let bytes = try RepositoryData.bytes("Data/geonames-cities500.csv.gz")
        var coordinates: [Coordinate] = []
        for line in bytes.split(separator: 10).dropFirst() {
            let fields = splitCSV(line)
            guard fields.count >= 4,
                  let latitude = Double(String(decoding: fields[2], as: UTF8.self)),
                  let longitude = Double(String(decoding: fields[3], as: UTF8.self)) else { continue }
            coordinates.append(try Coordinate(latitude: latitude, longitude: longitude))
        }
        return coordinates
    }

    /// Splits one CSV line on commas outside double quotes (enough for this file).
    static func splitCSV(_ line: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var fields: [ArraySlice<UInt8>] = []
        var start = line.startIndex
        var quoted = false
        for i in line.indices {
            if line[i] == 34 { quoted.toggle() } else if line[i] == 44, !quoted { // '"', ','
                fields.append(line[start..<i])
                start = i + 1
            }
        }
        fields.append(line[start...])
        return fields
    }
}
