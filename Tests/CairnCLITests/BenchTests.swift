import CairnBench
import Testing
@testable import CairnCLI

/// `cairn bench` as a command: its options and refusals (the bench itself is tested in CairnBenchTests).
@Suite("cairn bench")
struct BenchTests {
    @Test("The command refuses unknown engines and operations and parses the documented options")
    func commandOptions() throws {
        #expect(throws: (any Error).self) { try CairnCommand.parseAsRoot(["bench", "--engines", "cairn,postgis"]) }
        #expect(throws: (any Error).self) { try CairnCommand.parseAsRoot(["bench", "--ops", "box-5"]) }
        #expect(throws: (any Error).self) { try CairnCommand.parseAsRoot(["bench", "--points", "0"]) }
        let command = try #require(try CairnCommand.parseAsRoot([
            "bench", "--quick", "--dataset", "uniform", "--format", "json", "--engines", "sqlite-rtree,cairn",
            "--ops", "nearest-20,box-10", "--seed", "9",
        ]) as? BenchCommand)
        #expect(command.quick && command.format == .json && command.seed == 9)
        #expect(try command.engineNames() == [.sqliteRTree, .cairn])
        #expect(try command.operationKinds() == [.box(targetResults: 10), .nearest(count: 20)])
    }
}
