import CairnCLI
import Foundation

/// `cairn-postgres`: what `cairn` runs (exec, with its own arguments) when `--db` names a PostgreSQL store.
/// An import into PostgreSQL is its own command (a COPY import, `PostgresImportCommand`); everything else is the
/// CLI's (`CairnCommand`) with a reader of the store installed, so that queries, `get`, `cluster`, `tiles` and
/// `checkins validate` build the same in-memory index and print the same bytes as over an SQLite store, and
/// `cairn-postgres import --db FILE.sqlite` is `cairn import`'s own (the parity tests import both stores so).
@main
enum CairnPostgresMain {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "import", let store = storeArgument(arguments), PostgresCompanion.isStoreURL(store) {
            await PostgresImportCommand.main(Array(arguments.dropFirst()))
            return
        }
        PostgresCompanion.install(PostgresReading.reader)
        CairnCommand.main()
    }

    /// The last `--db` value (`--db VALUE` or `--db=VALUE`), as ArgumentParser keeps the last of a repeated option.
    static func storeArgument(_ arguments: [String]) -> String? {
        var found: String?
        for (position, argument) in arguments.enumerated() {
            if argument == "--db", position + 1 < arguments.count { found = arguments[position + 1] }
            if argument.hasPrefix("--db=") { found = String(argument.dropFirst(5)) }
        }
        return found
    }
}
