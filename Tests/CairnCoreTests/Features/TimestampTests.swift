import Foundation
import CairnCore
import Testing

@Suite struct TimestampTests {
    static let knownTimes: [(text: String, seconds: Double)] = [
        ("1970-01-01T00:00:00Z", 0),
        ("2026-06-01", 1_780_272_000),
        ("2026-06-01T18:30", 1_780_272_000 + 18.5 * 3600),
        ("2026-06-01T18:30:00+02:00", 1_780_272_000 + 16.5 * 3600),
        ("2026-06-01 18:30:00.250-05:30", 1_780_272_000 + 24 * 3600 + 0.25),
        ("2000-02-29T23:59:59Z", 951_868_799),
        ("1969-12-31T23:59:59Z", -1),
    ]

    @Test(arguments: knownTimes)
    func parsesISO8601(text: String, seconds: Double) throws {
        let parsed = try #require(Timestamp(iso8601: text))
        #expect(parsed.secondsSince1970 == seconds)
    }

    @Test(arguments: ["", "2026-13-01", "2026-02-30", "2026-06-01T24:00", "2026-06-01T10:00Zjunk", "yesterday", "2026-6-1", "2026-06-01T10:00+2"])
    func refusesMalformedTimes(text: String) {
        #expect(Timestamp(iso8601: text) == nil)
    }

    @Test func instantsBeyondFourDigitYearsFormatWithoutTrapping() {
        #expect(Timestamp(secondsSince1970: 1e300).iso8601 == "1e+300")
        #expect(Timestamp(secondsSince1970: .nan).iso8601 == "nan")
        #expect(Timestamp(secondsSince1970: 253_402_300_799).iso8601 == "9999-12-31T23:59:59Z")
    }

    /// One instant, written with any offset and any fraction of up to nine digits, reads as one value (the
    /// offset used to be subtracted after the fraction was added, so the rounding depended on the offset).
    @Test func oneInstantReadsAsOneValueWhateverItsOffset() throws {
        var random = SeededRandom(seed: 8)
        for _ in 0..<2_000 {
            let utc = Int64(random.uniform(-2e9...4e9))
            let digits = 1 + random.below(9)
            var fraction = ""
            for _ in 0..<digits { fraction += String(random.below(10)) }
            let offsetMinutes = (random.below(37) - 18) * 60 + (random.chance(0.3) ? 30 : 0)
            func text(_ seconds: Int64, zone: String) -> String {
                let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
                let date = Timestamp(secondsSince1970: Double(days * 86_400)).iso8601.prefix(10)
                let rest = seconds - days * 86_400
                let clock = String(format: "%02lld:%02lld:%02lld", rest / 3600, rest / 60 % 60, rest % 60)
                return "\(date)T\(clock).\(fraction)\(zone)"
            }
            let sign = offsetMinutes < 0 ? "-" : "+"
            let zone = sign + String(format: "%02d:%02d", abs(offsetMinutes) / 60, abs(offsetMinutes) % 60)
            let z = try #require(Timestamp(iso8601: text(utc, zone: "Z")))
            let shifted = try #require(Timestamp(iso8601: text(utc + Int64(offsetMinutes * 60), zone: zone)))
            #expect(z == shifted, "\(text(utc, zone: "Z")) and \(text(utc + Int64(offsetMinutes * 60), zone: zone))")
        }
        // A case where the old order of additions rounded the two spellings apart (found in review).
        #expect(Timestamp(iso8601: "2026-05-01T00:00:00.154104352Z") == Timestamp(iso8601: "2026-05-01T10:00:00.154104352+10:00"))
        // Digits past the ninth are ignored.
        #expect(Timestamp(iso8601: "2026-05-01T09:59:59.9999999999Z") == Timestamp(iso8601: "2026-05-01T09:59:59.999999999Z"))
    }

    @Test func formatsRoundTrip() throws {
        var random = SeededRandom(seed: 1)
        for _ in 0..<1_000 {
            let seconds = (random.uniform(-2e9...4e9) * 1000).rounded() / 1000
            let text = Timestamp(secondsSince1970: seconds).iso8601
            let back = try #require(Timestamp(iso8601: text))
            #expect(abs(back.secondsSince1970 - seconds) < 1e-3, "\(text)")
        }
    }
}

@Suite struct ModelValidationTests {
    @Test(arguments: [(91.0, 0.0), (-90.5, 0.0), (0.0, 180.5), (0.0, -181.0), (.nan, 0.0), (0.0, .infinity)])
    func coordinatesOutOfRangeAreRefused(latitude: Double, longitude: Double) {
        #expect(throws: CoordinateError.self) { try Coordinate(latitude: latitude, longitude: longitude) }
    }

    @Test func edgesAreValid() throws {
        for (lat, lon) in [(90.0, 180.0), (-90.0, -180.0), (0.0, 0.0)] {
            _ = try Coordinate(latitude: lat, longitude: lon)
        }
    }

    @Test func swappedCoordinatesAreSuspected() {
        #expect(throws: CoordinateError.outOfRange(field: .latitude, value: 151.2, swapSuspected: true)) {
            try Coordinate(latitude: 151.2, longitude: -33.8)
        }
    }

    @Test func featuresAreValidated() throws {
        let here = try Coordinate(latitude: 1, longitude: 2)
        #expect(throws: FeatureError.emptyId) { try Feature(id: "", kind: .place, location: here) }
        #expect(throws: FeatureError.invalidRadius(0)) { try Feature(id: "a", kind: .place, location: here, radiusMeters: 0) }
        #expect(throws: FeatureError.missingTime(kind: .event)) { try Feature(id: "a", kind: .event, location: here) }
        #expect(throws: FeatureError.self) {
            try Feature(id: "a", kind: .trailhead, location: here, attributes: ["difficulty": .string("extreme")])
        }
        #expect(throws: FeatureError.self) {
            try Feature(id: "a", kind: .trailhead, location: here, attributes: ["ageGroups": .set(["baby", "teen"])])
        }
        #expect(throws: FeatureError.self) {
            try TimeWindow(start: Timestamp(secondsSince1970: 10), end: Timestamp(secondsSince1970: 5))
        }
        _ = try Feature(id: "a", kind: .trailhead, location: here, attributes: ["ageGroups": .set(["baby", "toddler"]), "difficulty": .string("casual")])
    }

    @Test func attributeInferenceKeepsIdentifiersAsText() {
        #expect(AttributeValue.inferred(from: "08") == .string("08"))
        #expect(AttributeValue.inferred(from: "0.5") == .number(0.5))
        #expect(AttributeValue.inferred(from: "-12") == .number(-12))
        #expect(AttributeValue.inferred(from: "1e3") == .number(1000))
        #expect(AttributeValue.inferred(from: "true") == .bool(true))
        #expect(AttributeValue.inferred(from: "nan") == .string("nan"))
        #expect(AttributeValue.inferred(from: "2026-06-01T10:00:00Z") == .time(Timestamp(secondsSince1970: 1_780_308_000)))
        #expect(AttributeValue.inferred(from: "Asia/Tehran") == .string("Asia/Tehran"))
        #expect(AttributeValue.inferred(from: "") == nil)
    }

    @Test func distancesAcceptUnits() {
        #expect(DistanceText.meters(from: "500") == 500)
        #expect(DistanceText.meters(from: "500m") == 500)
        #expect(DistanceText.meters(from: " 500 ") == 500)
        #expect(DistanceText.meters(from: "1.5 KM") == 1500)
        #expect(DistanceText.meters(from: "250ft") == 250 * 0.3048)
        #expect(DistanceText.meters(from: "m") == nil)
        #expect(DistanceText.meters(from: "1e308km") == nil) // overflows to infinity: refused, not accepted as inf
        #expect(DistanceText.meters(from: "1.2km") == 1200)
        #expect(DistanceText.meters(from: "3mi") == 3 * 1609.344)
        #expect(DistanceText.meters(from: "wide") == nil)
        #expect(DistanceText.meters(from: "-5") == nil)
    }
}
