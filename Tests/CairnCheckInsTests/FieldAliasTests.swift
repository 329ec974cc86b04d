import CairnIO
import Testing
@testable import CairnCheckIns

/// One alias table: `cairn import` (`FieldRole`) and the check-in reader (`CheckInColumn`) give a name the same
/// meaning, the time names (once two lists that disagreed) included.
@Suite struct FieldAliasTests {
    @Test func importAndCheckInsReadTheSameNames() {
        for name in FieldAlias.time.names + ["TimeStamp", "Seen_At", "CREATED_AT"] {
            #expect(FieldRole.resolve(name, idColumn: nil) == .time, "\(name)")
            #expect(CheckInColumn.resolve(name) == .time, "\(name)")
        }
        for (alias, role, column) in [(FieldAlias.latitude, FieldRole.latitude, CheckInColumn.latitude),
                                      (.longitude, .longitude, .longitude)] {
            for name in alias.names {
                #expect(FieldRole.resolve(name, idColumn: nil) == role)
                #expect(CheckInColumn.resolve(name) == column)
            }
        }
        // Names of ids stay attributes for a feature and are columns for a check-in.
        for name in FieldAlias.place.names { #expect(FieldRole.resolve(name, idColumn: nil) == .attribute(name)) }
        #expect(FieldAlias.place.names.allSatisfy { CheckInColumn.resolve($0) == .place })
        #expect(CheckInColumn.resolve(" Check_In_Id ") == .id && CheckInColumn.resolve("ID") == .id)
        // Every name is in one list only.
        let all = FieldAlias.allCases.flatMap(\.names)
        #expect(Set(all).count == all.count)
    }
}
