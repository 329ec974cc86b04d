import ArgumentParser
import Testing
@testable import CairnCLI

/// Every numeric option takes a negative (or otherwise out-of-range) value as a value and refuses it with a
/// message naming the option, the value and what is allowed, never ArgumentParser's "Missing value".
@Suite struct NumericOptionTests {
    /// One refused value: the arguments (otherwise valid), the option and the value as the message must show them.
    struct Refusal: CustomTestStringConvertible, Sendable {
        let arguments: [String]
        let option: String
        let value: String
        /// A word of the message that says what is allowed.
        let allowed: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let point = ["--lat", "-17.8", "--long", "178.4"]
    static let checkIns = ["checkins", "validate", "--places", "p.csv", "--checkins", "c.csv"]

    static let refusals: [Refusal] = [
        Refusal(arguments: ["around"] + point + ["--rad", "-5"], option: "--rad", value: "-5", allowed: "0 or more"),
        Refusal(arguments: ["around"] + point + ["--radius", "-1.2km"], option: "--rad", value: "-1.2km", allowed: "0 or more"),
        Refusal(arguments: ["nearest"] + point + ["-k", "-5"], option: "-k", value: "-5", allowed: "at least 1"),
        Refusal(arguments: ["nearest"] + point + ["-k", "0"], option: "-k", value: "0", allowed: "at least 1"),
        Refusal(arguments: ["nearest"] + point + ["--max-distance", "-5"], option: "--max-distance", value: "-5", allowed: "0 or more"),
        Refusal(arguments: ["geohash", "encode"] + point + ["--precision", "-5"], option: "--precision", value: "-5", allowed: "1 to 12"),
        Refusal(arguments: ["geohash", "encode"] + point + ["--precision", "13"], option: "--precision", value: "13", allowed: "1 to 12"),
        Refusal(arguments: ["geohash", "cover", "--bbox", "-1,-1,1,1", "--max-cells", "-5"], option: "--max-cells", value: "-5", allowed: "1 to"),
        Refusal(arguments: ["cluster", "--zoom", "-1"], option: "--zoom", value: "-1", allowed: "0 to 24"),
        Refusal(arguments: ["cluster", "--zoom", "3", "--radius", "-5"], option: "--radius", value: "-5", allowed: "greater than 0"),
        Refusal(arguments: ["cluster", "--zoom", "3", "--extent", "-512"], option: "--extent", value: "-512", allowed: "greater than 0"),
        Refusal(arguments: ["cluster", "--zoom", "3", "--min-points", "-2"], option: "--min-points", value: "-2", allowed: "at least 1"),
        Refusal(arguments: ["cluster", "--zoom", "3", "--min-zoom", "-1"], option: "--min-zoom", value: "-1", allowed: "0 to"),
        Refusal(arguments: ["cluster", "--zoom", "3", "--max-zoom", "-1"], option: "--max-zoom", value: "-1", allowed: "0 to 24"),
        Refusal(arguments: ["cluster", "--zoom", "3", "--min-zoom", "9", "--max-zoom", "8"], option: "--max-zoom", value: "8", allowed: "9 to 24"),
        Refusal(arguments: ["cluster", "--zoom", "3", "--cell-size", "-60"], option: "--cell-size", value: "-60", allowed: "at least 1"),
        Refusal(arguments: ["cluster", "--zoom", "3", "--width", "-1024"], option: "--width", value: "-1024", allowed: "1 to"),
        Refusal(arguments: ["cluster", "--zoom", "3", "--height", "-768"], option: "--height", value: "-768", allowed: "1 to"),
        Refusal(arguments: ["cluster", "--zoom", "3", "--mode", "grid", "--cell-size", "inf"], option: "--cell-size", value: "inf", allowed: "finite"),
        Refusal(arguments: ["cluster", "--leaves", "1", "--limit", "-1"], option: "--limit", value: "-1", allowed: "at least 0"),
        Refusal(arguments: ["cluster", "--leaves", "1", "--offset", "-1"], option: "--offset", value: "-1", allowed: "at least 0"),
        Refusal(arguments: ["cluster", "--expand", "-5"], option: "--expand", value: "-5", allowed: "whole number"),
        Refusal(arguments: ["cluster", "--children", "-5"], option: "--children", value: "-5", allowed: "whole number"),
        Refusal(arguments: ["cluster", "--leaves", "-5"], option: "--leaves", value: "-5", allowed: "whole number"),
        Refusal(arguments: checkIns + ["--threads", "-5"], option: "--threads", value: "-5", allowed: "1 to 256"),
        Refusal(arguments: checkIns + ["--batch-bytes", "-5"], option: "--batch-bytes", value: "-5", allowed: "at least 1"),
        Refusal(arguments: checkIns + ["--radius", "-5"], option: "--radius", value: "-5", allowed: "above 0"),
        Refusal(arguments: ["bench", "--points", "-5"], option: "--points", value: "-5", allowed: "1 to"),
        Refusal(arguments: ["bench", "--queries", "-5"], option: "--queries", value: "-5", allowed: "at least 1"),
        Refusal(arguments: ["bench", "--seed", "-5"], option: "--seed", value: "-5", allowed: "whole number"),
        Refusal(arguments: ["generate", "--seed", "-5"], option: "--seed", value: "-5", allowed: "whole number"),
        Refusal(arguments: ["generate", "--parks", "-5"], option: "--parks", value: "-5", allowed: "0 or more"),
        Refusal(arguments: ["generate", "--trailheads", "-5"], option: "--trailheads", value: "-5", allowed: "0 or more"),
        Refusal(arguments: ["generate", "--places", "-5"], option: "--places", value: "-5", allowed: "0 or more"),
        Refusal(arguments: ["generate", "--events", "-5"], option: "--events", value: "-5", allowed: "0 or more"),
        Refusal(arguments: ["generate", "--users", "-5"], option: "--users", value: "-5", allowed: "0 or more"),
        Refusal(arguments: ["generate", "--checkins", "-5"], option: "--checkins", value: "-5", allowed: "0 or more"),
        Refusal(arguments: ["import", "f.csv", "--radius", "-5"], option: "--radius", value: "-5", allowed: "greater than 0"),
    ]

    @Test(arguments: refusals)
    func outOfRangeValuesAreRefusedByName(_ refusal: Refusal) {
        var message: String?
        do {
            _ = try CairnCommand.parseAsRoot(refusal.arguments)
        } catch {
            message = CairnCommand.message(for: error)
        }
        guard let message else {
            Issue.record("accepted: \(refusal.arguments.joined(separator: " "))")
            return
        }
        #expect(!message.contains("Missing value"), "\(message)")
        #expect(message.contains(refusal.option), "\(message)")
        #expect(message.contains("'\(refusal.value)'") || message.contains("got \(refusal.value)"), "\(message)")
        #expect(message.contains(refusal.allowed), "\(message)")
    }

    @Test func valuesInRangeAreAccepted() throws {
        let command = try #require(try CairnCommand.parseAsRoot(["cluster", "--zoom", "0", "--min-zoom", "0", "--expand", "0"]) as? ClusterCommand)
        #expect(command.expand == 0)
        let generate = try #require(try CairnCommand.parseAsRoot(["generate", "--seed", "18446744073709551615", "--parks", "0", "--checkins", "0"]) as? GenerateCommand)
        #expect(generate.seed == .max)
        let nearest = try #require(try CairnCommand.parseAsRoot(["nearest"] + Self.point + ["-k", "3"]) as? NearestCommand)
        #expect(nearest.k == 3)
    }
}
