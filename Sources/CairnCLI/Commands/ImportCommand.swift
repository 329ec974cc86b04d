import ArgumentParser
import Foundation
import CairnCore
import CairnIO
import CairnStore

extension FeatureKind: ExpressibleByArgument {}
extension InputFormat: ExpressibleByArgument {}

/// `cairn import FILE...`: validates every row and writes the good ones into the store.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import features from CSV, GeoJSON, GeoJSON text sequences or JSON lines (.gz too).",
        discussion: """
            Every rejected row is reported on stderr as FILE:LINE: reason. The run ends with one line, \
            'imported N, rejected M'. Exit status: 0 when every row was imported, 3 when some rows were rejected \
            (the good rows are kept), 1 when the run failed (then nothing is written). \
            With --db postgres://user@host:port/database the rows go to a PostgreSQL/PostGIS store instead, in one \
            COPY transaction (the Server package's cairn-postgres does it; docs/SERVER.md).
            """
    )

    @OptionGroup var input: ImportInputOptions

    @OptionGroup var store: StoreOptions

    func run() throws {
        if PostgresCompanion.isStoreURL(store.path) {
            // cairn-postgres runs its own import (COPY), given the arguments as given (`import …`).
            try PostgresCompanion.exec(arguments: Array(CommandLine.arguments.dropFirst()), command: "cairn import",
                                       environment: ProcessInfo.processInfo.environment)
        }
        let opened = try store.open(create: true)
        let options = input.importOptions(placeLookup: { id in try? opened.feature(id: id) })
        let importer = Importer(
            options: options,
            strict: input.strict,
            reportRejection: { Terminal.printError($0.description) },
            warn: { Terminal.printError("warning: " + $0) },
            showProgress: !input.noProgress && Terminal.standardErrorIsTerminal,
            makeValid: input.makeValid
        )
        let summary: ImportSummary
        do {
            summary = try importer.run(files: input.files, format: input.format, into: opened)
        } catch let stop as Importer.StrictStop {
            throw CLIError("stopped at the first rejected row (\(stop.rejection.file):\(stop.rejection.line)) because of --strict; nothing was written")
        } catch let error as InputError {
            throw CLIError("\(error); nothing was written")
        }
        for note in summary.coordinateSystemNotes { print(note) }
        print(summary.line)
        if summary.rejected > 0 { throw ExitCode(3) }
    }
}
