import CairnCore
import CairnIO
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Check-ins at park polygons (issue #19), seeded: the places are a `PolygonSet` around the towns, each written
/// with its WKT (the area decides, no radius), and each check-in names a random park (1 % a park that does not
/// exist; 10 % no park, matched by containment) at a point uniform in the disc of 1.1 radii around the park's
/// town (the polygon's vertices lie at 0.6 to 1.0 radii), so about half lie inside and the rest near the
/// boundary, where the exact test and the distance to the boundary work hardest. Times are across 2026, users drawn from 100,000, rows in random order.
public struct ParkCheckInLoad: Sendable {
    /// The parks.
    public let parks: PolygonSet
    /// The seed of the check-ins.
    public let seed: UInt64
    /// How many check-ins.
    public let checkIns: Int

    /// The files, in the order they are written.
    public static let fileNames = ["places.csv", "checkins.csv"]

    /// A load of `checkIns` check-ins at `parks`, fixed by `seed`.
    /// - Complexity: O(1).
    public init(parks: PolygonSet, seed: UInt64, checkIns: Int) {
        self.parks = parks
        self.seed = seed
        self.checkIns = checkIns
    }

    /// Writes the files as pieces of CSV text, `write(fileName, text)`, each file's pieces in order; memory stays
    /// flat whatever the number of check-ins.
    /// - Complexity: O(vertices + check-ins).
    public func generate(write: (String, String) -> Void) {
        var random = SeededRandom(seed: seed &+ 0x9A4C)
        var text = "id,name,wkt\n"
        for (n, shape) in parks.shapes.enumerated() {
            text += "park\(n + 1),Park \(n + 1),\(TextEscaping.csvField(Self.wkt(shape)))\n"
            if n % EdgeCheckInLoad.rowsPerPiece == EdgeCheckInLoad.rowsPerPiece - 1 { write("places.csv", text); text = "" }
        }
        write("places.csv", text)

        text = "id,userId,placeId,latitude,longitude,time\n"
        for n in 0..<checkIns where !parks.shapes.isEmpty {
            let park = random.below(parks.shapes.count)
            let draw = random.unit()
            let placeId = draw < 0.01 ? "missing-\(n + 1)" : (draw < 0.11 ? "" : "park\(park + 1)")
            let radius = parks.radiiMeters[park]
            // Uniform in the disc of 1.1 radii: about half inside, the rest near the boundary.
            let angle = random.uniform(0...(2 * Double.pi)), distance = 1.1 * radius * random.unit().squareRoot()
            let east = distance * cos(angle), north = distance * sin(angle)
            let (latitude, longitude) = EdgeCheckInLoad.offset(parks.centres[park], eastMeters: east, northMeters: north)
            let time = (EdgeCheckInLoad.yearStartSeconds + random.uniform(0...EdgeCheckInLoad.yearSeconds)).rounded()
            text += "c\(n + 1),u\(1 + random.below(EdgeCheckInLoad.userCount)),\(placeId),"
                + "\(Self.number(latitude)),\(Self.number(longitude)),\(Timestamp(secondsSince1970: time).iso8601)\n"
            if n % EdgeCheckInLoad.rowsPerPiece == EdgeCheckInLoad.rowsPerPiece - 1 { write("checkins.csv", text); text = "" }
        }
        write("checkins.csv", text)
    }

    /// A polygon's WKT, seven decimals (about a centimetre; the polygons are metres to kilometres wide, so rounding
    /// keeps them valid).
    /// - Complexity: O(v).
    static func wkt(_ shape: Shape) -> String {
        let parts = shape.parts
        let rings = parts.ringEnds.indices.map { ring in
            "(" + parts.positionRange(ofRing: ring).map { position in
                "\(number(parts.positions[2 * position])) \(number(parts.positions[2 * position + 1]))"
            }.joined(separator: ", ") + ")"
        }
        return "POLYGON (" + rings.joined(separator: ", ") + ")"
    }

    /// Seven decimals.
    private static func number(_ value: Double) -> String { TextEscaping.jsonNumber((value * 1e7).rounded() / 1e7) }
}
