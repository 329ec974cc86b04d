import ArgumentParser
import CairnStore
#if canImport(Glibc)
import Glibc
#endif

/// The `--db PATH` option shared by every command that reads or writes the store.
struct StoreOptions: ParsableArguments {
    @Option(name: .customLong("db"), help: ArgumentHelp("The store file (SQLite).", valueName: "path"))
    var path: String = "cairn.sqlite"

    /// Opens the store, creating it when `create` is true; otherwise a missing file is an error with advice.
    func open(create: Bool) throws -> FeatureStore {
        if !create, access(path, F_OK) != 0 {
            throw CLIError("no store at '\(path)'; import data first (cairn import FILE --db \(path)) or pass --db PATH")
        }
        return try FeatureStore(path: path)
    }
}

/// An error printed as `error: message` with exit status 1.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ message: String) { description = message }
}
