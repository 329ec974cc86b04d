import CairnCore
import CairnIO

/// A reference file's required columns, resolved from its header: each has a name and a position (-1 when
/// absent), and the layout exists only when every required one is there.
protocol ReferenceColumns: Sendable {
    /// Resolves every column, required or not.
    init(resolving header: [String])
    /// Each required column's name and position.
    var required: [(name: String, position: Int)] { get }
}

extension ReferenceColumns {
    /// The first column of `header` that `FieldAlias` (the one alias table) resolves to `alias`, or -1.
    static func position(of alias: FieldAlias, in header: [String]) -> Int {
        header.firstIndex { FieldAlias.resolve($0) == alias } ?? -1
    }

    /// The first column of `header` named `name` (any case), or -1.
    static func position(named name: String, in header: [String]) -> Int {
        header.firstIndex { $0.lowercased() == name } ?? -1
    }

    /// The id column: `id`, else the first column that `fallback` says is an id (-1 when none).
    static func idPosition(in header: [String], fallback: (String) -> Bool) -> Int {
        let id = position(named: "id", in: header)
        return id >= 0 ? id : header.firstIndex(where: fallback) ?? -1
    }

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
