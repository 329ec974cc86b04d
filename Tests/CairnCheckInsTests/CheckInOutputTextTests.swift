import CairnCore
import CairnIO
import CairnTestSupport
import Foundation
import Testing
@testable import CairnCheckIns

/// The output's pre-rendered texts and its two writers: the fast path that writes a row straight into spare
/// capacity and `appendRow` must give the same bytes, distances included, for ids of every kind.
@Suite struct CheckInOutputTextTests {
    /// The millimetre ceiling printed by an independent route: the integer ceiling split into metres and a
    /// three-digit fraction with `String`.
    func reference(_ meters: Double) -> String? {
        guard let whole = CheckInMillimetres.ceiling(meters) else { return nil }
        let fraction = String(whole % 1000)
        return "\(whole / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    @Test func millimetresAreWrittenAsTheRuleSays() {
        var random = SplitMix64(seed: 20)
        var values: [Double] = [0, 1e-9, 0.001, 0.0015, 0.999, 0.9995, 1, 9.9999, 10, 999.9991, 1000, 1234.5678,
                                4_503_599_627_370_495.5, 8.9e15, 8.99e15]
        for exponent in -4...15 {
            for _ in 0..<200 { values.append(random.unit() * pow(10, Double(exponent))) }
        }
        var buffer = [UInt8](repeating: 0, count: CheckInNumberFormat.maxMillimetresBytes)
        for meters in values {
            let expected = reference(meters)
            let count = buffer.withUnsafeMutableBufferPointer { CheckInNumberFormat.writeMillimetresUp(meters, to: $0.baseAddress!) }
            #expect(count.map { String(decoding: buffer.prefix($0), as: UTF8.self) } == expected, "\(meters)")
            var appended: [UInt8] = []
            CheckInNumberFormat.appendMillimetresUp(meters, to: &appended)
            #expect(String(decoding: appended, as: UTF8.self) == expected, "\(meters)")
        }
        // No ceiling: nothing written by the fast path; `appendMillimetresUp` prints the number as it is.
        for meters in [Double.nan, -1, 9.1e18, .infinity] {
            let count = buffer.withUnsafeMutableBufferPointer { CheckInNumberFormat.writeMillimetresUp(meters, to: $0.baseAddress!) }
            #expect(count == nil)
            var appended: [UInt8] = []
            CheckInNumberFormat.appendMillimetresUp(meters, to: &appended)
            #expect(String(decoding: appended, as: UTF8.self) == String(meters))
        }
    }

    /// Ids of every kind (plain, needing quotes, non-ASCII, longer than a slot) among enough places that the texts
    /// are rendered in two parts; every row is written by both writers and compared with the rule's text.
    @Test func placeTextsAndRowsAgreeWithTheRule() throws {
        var random = SplitMix64(seed: 7)
        let specials = ["a,b", "say \"hi\"", "caf\u{E9}", "\u{65E5}\u{672C}", "line\nfeed", "cr\rid",
                        String(repeating: "long", count: 20), "x,\"" + String(repeating: "\u{E9}", count: 40) + "\""]
        var places: [CheckInPlace] = []
        for p in 0..<5000 {
            let id = p % 500 < specials.count ? specials[p % 500] + String(p) : String(p * 7)
            let radius = random.chance(0.5) ? Double(50 + random.below(1950)) : 50 + random.unit() * 1950
            places.append(CheckInPlace(id: id, circle: try Circle(center: Coordinate(latitude: random.uniform(-80...80),
                                                                                     longitude: random.uniform(-180...180)),
                                                                  radiusMeters: radius)))
        }
        let validator = CheckInValidator(places: places, events: [CheckInEvent]())
        let text = CheckInOutputText(validator: validator, format: .csv)
        let slots = text.makeVerdictSlots()
        var fastRows = 0
        for (p, place) in places.enumerated() {
            for (id, distance) in [("c\(p)", Double.nan), ("d\(p)", place.circle.radiusMeters + random.unit() * 3000)] {
                let reason: CheckInReason? = distance.isNaN ? nil : .outsideRadius
                let result = CheckInResult(reason: reason, place: Int32(p), distance: distance)
                let expected = id + (reason == nil ? ",valid,," : ",invalid,outside_radius,") + (reference(distance) ?? "")
                    + "," + TextEscaping.jsonNumber(place.circle.radiusMeters) + "," + TextEscaping.csvField(place.id) + ",\n"
                let idBytes = Array(id.utf8)
                try idBytes.withUnsafeBufferPointer { idBuffer in
                    let field = CheckInField(base: idBuffer.baseAddress, count: idBuffer.count)
                    var slow: [UInt8] = []
                    text.appendRow(id: field, event: .empty, result: result, to: &slow)
                    #expect(String(decoding: slow, as: UTF8.self) == expected)
                    var out = [UInt8](repeating: 0, count: text.csvRowBound(id: field, event: .empty))
                    let written = try slots.withUnsafeBufferPointer { slots in
                        try out.withUnsafeMutableBufferPointer { out in
                            text.writeCSVRow(id: field, event: .empty, result: result, verdictSlots: try #require(slots.baseAddress),
                                             to: try #require(out.baseAddress))
                        }
                    }
                    if let written {
                        fastRows += 1
                        #expect(String(decoding: out.prefix(written), as: UTF8.self) == expected)
                    }
                }
            }
        }
        // Every row but those of the long texts (read from their own table) took the fast path.
        #expect(fastRows >= 2 * 5000 - 2 * 40)
    }
}
