import CairnIO
import Testing
@testable import CairnServer

/// The fast reading of plain `bbox`/`sw`/`ne` numbers gives `QueryArgument.numbers`'s numbers or leaves the text
/// to it: never other numbers, and never a different error.
@Suite struct QueryParametersPlainNumbersTests {
    static let texts = [
        "1,2,3,4", "-4.327160,26.083611,40.672840,51.813495", "-180,-85.05112878,180,85.05112878", "-0,-0,0,0",
        "1e2,2,3,4", "0x10,2,3,4", "inf,2,3,4", "nan,1,2,3", "+1,2,3,4", ".5,5.,3,4", "1_0,2,3,4",
        "99999999999999999999999,1,2,3", "1.00000000000000000000000000001,2,3,4", "1, 2,3,4", " 1,2,3,4", "1,2,3,4 ",
        "1,2,3", "1,2,3,4,5", "1,,3,4", ",1,2,3", "1,2,3,4,", "", ",", "a,b", "1,2,3,4\u{301}", "1\u{301},2,3,4",
        "1,\u{301}2,3,4", "1\r\n,2,3,4", "1,2\r,\n3,4", "1\t,2,3,4", "\u{661},\u{662},\u{663},\u{664}", "1，2，3，4",
        "60.17,24.94", "-25,170", "1,2",
    ]

    @Test(arguments: [2, 4])
    func fastNumbersAreTheCLIsOrNone(count: Int) {
        for text in Self.texts {
            let cli = try? QueryArgument.numbers(text, count: count, argument: "bbox", shape: "numbers")
            guard let fast = QueryParameters.plainNumbers(text, count: count) else { continue }
            #expect(fast.map(\.bitPattern) == cli?.map(\.bitPattern), "'\(text)', \(count) numbers")
        }
    }

    /// What a map sends is read by the fast path (the test above would pass with no fast path at all).
    @Test func plainTextIsReadFast() {
        #expect(QueryParameters.plainNumbers("-4.327160,26.083611,40.672840,51.813495", count: 4) == [-4.32716, 26.083611, 40.672840, 51.813495])
        #expect(QueryParameters.plainNumbers("-25,170", count: 2) == [-25, 170])
        #expect(QueryParameters.plainNumbers("1, 2,3,4", count: 4) == nil)
        #expect(QueryParameters.plainNumbers("1,2,3", count: 4) == nil)
    }
}
