@testable import CairnCore
import CairnTestSupport
import Testing

/// `CheckInIdList`: ids back to back with their hashes, joined list to list as the parallel reference read joins
/// its pieces.
@Suite struct CheckInIdListTests {
    /// Ids of every length from 0 to 40 bytes, appended as bytes or strings and joined from three lists, read back
    /// whole with the hash `KeyTable` looks them up by.
    @Test func idsReadBackWithTheirHashesAfterJoins() {
        let ids = (0...40).map { String(repeating: "k", count: $0) + (($0 % 3 == 0) ? "é" : "") }
        var parts = [CheckInIdList(), CheckInIdList(), CheckInIdList()]
        for (n, id) in ids.enumerated() {
            if n % 2 == 0 {
                parts[n % 3].append(id)
            } else {
                var bytes = id
                bytes.withUTF8 { parts[n % 3].append(UnsafeRawBufferPointer($0)) }
            }
        }
        var joined = CheckInIdList()
        for part in parts { joined.append(contentsOf: part) }
        let expected = (0..<3).flatMap { k in ids.enumerated().filter { $0.offset % 3 == k }.map(\.element) }
        #expect(joined.count == ids.count)
        #expect((0..<joined.count).map { joined.string(at: $0) } == expected)
        for (n, id) in expected.enumerated() {
            var id = id
            let hash = id.withUTF8 { byteHash(UnsafeRawBufferPointer($0)) }
            #expect(joined.withId(n) { $1 } == hash, "\(id)")
        }
    }

    /// Rows built from `CheckInEvent`s read back as the same events: a missing, an empty and a given place id.
    @Test func eventRowsReadBackAsTheirEvents() throws {
        let window = try TimeWindow(start: Timestamp(secondsSince1970: 10), end: Timestamp(secondsSince1970: 20))
        let circle = try Circle(center: Coordinate(latitude: 1, longitude: 2), radiusMeters: 3)
        let events = [CheckInEvent(id: "a", placeId: nil, circle: circle, window: window),
                      CheckInEvent(id: "b", placeId: "", window: window),
                      CheckInEvent(id: "c", placeId: "p", window: window)]
        let rows = CheckInEventRows(events)
        #expect(rows.events == events)
        #expect((0..<rows.count).map { rows.placeNames.string(at: $0) } == ["a", "b", "p"])
    }
}
