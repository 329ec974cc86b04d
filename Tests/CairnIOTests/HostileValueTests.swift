import CairnCore
import CairnTestSupport
@testable import CairnIO
import Testing

@Suite struct HostileValueTests {
    @Test func timesBeyondYear9999AreRejectedNotStored() throws {
        let scratch = try TemporaryFolder()
        let path = try scratch.write("t.jsonl", #"{"id":"a","lat":1,"lon":2,"start":1e300,"end":1e301}"# + "\n")
        let record = try #require(try openFeatureReader(path: path, options: ImportOptions(kind: .event)).next())
        guard case .rejected(let rejection) = record else { Issue.record("expected a rejection"); return }
        #expect(rejection.reason.contains("between years 0 and 9999"))
    }

    @Test func nonFiniteNumbersAreWrittenAsJSONNull() {
        #expect(TextEscaping.jsonNumber(.infinity) == "null")
        #expect(TextEscaping.jsonNumber(.nan) == "null")
        #expect(TextEscaping.jsonNumber(2.5) == "2.5")
    }
}
