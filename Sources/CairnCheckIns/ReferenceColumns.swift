import CairnCore
import CairnIO
import CairnStore
import Dispatch
import Foundation

/// Column positions shared by the reference files, resolved with `FieldRole`'s aliases.
func roles(_ header: [String]) -> [FieldRole] {
    header.map { FieldRole.resolve($0, idColumn: nil) }
}

func position(_ names: [String], in header: [String]) -> Int {
    header.firstIndex { names.contains($0.lowercased()) } ?? -1
}

/// A reference file's required columns, resolved from its header: each has a name and a position (-1 when
/// absent), and the layout exists only when every required one is there.
protocol ReferenceColumns: Sendable {
    /// Resolves every column, required or not.
    init(resolving header: [String])
    /// Each required column's name and position.
    var required: [(name: String, position: Int)] { get }
}

extension ReferenceColumns {
    /// The layout, or nil when a required column is missing.
    init?(_ header: [String]) {
        self.init(resolving: header)
        guard missing.isEmpty else { return nil }
    }

    /// The names of the required columns the header lacks.
    var missing: [String] { required.filter { $0.position < 0 }.map(\.name) }

    /// The error for a header that lacks required columns, naming them.
    static func missingColumnsError(_ path: String, header: [String]) -> CheckInError {
        let layout = Self(resolving: header)
        return CheckInError.missingColumns(file: path, missing: layout.missing,
                                       expected: layout.required.map(\.name).joined(separator: ","), header: header)
    }
}
