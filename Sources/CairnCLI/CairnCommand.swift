import ArgumentParser
import CairnCore
import CairnIO

/// The root of the `cairn` command line.
///
/// Every command, subcommands included, names itself (`commandName:`): without one, swift-argument-parser derives
/// the name from the type with `String(describing:)` on every run, about 1.5 M instructions a command.
public struct CairnCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "cairn",
        abstract: "A geospatial query and indexing engine: import places, parks, events and check-ins; query them fast and exactly.",
        version: CairnVersion.current,
        subcommands: [ImportCommand.self, InfoCommand.self, GetCommand.self, DeleteCommand.self, GenerateCommand.self,
                      BBoxCommand.self, AroundCommand.self, NearestCommand.self, ContainingCommand.self, IntersectsCommand.self,
                      GeohashCommand.self,
                      BenchCommand.self, SnapshotCommand.self, ClusterCommand.self, TilesCommand.self, CheckInsCommand.self, ServeCommand.self]
    )

    public init() {}

    /// Parses the command line and runs the command, as ArgumentParser's `main()` does, except that the message of
    /// an error from a run (which may quote input: a header, a value, a file name) has its control characters
    /// escaped (`\u{1B}`) before it reaches the terminal. Other messages are printed byte for byte as before.
    public static func main() {
        var command: ParsableCommand
        do {
            command = try parseAsRoot(nil)
        } catch {
            exit(withError: error)
        }
        do {
            try command.run()
        } catch {
            exit(withError: escapingMessage(of: error))
        }
    }

    /// `error`, or a `CLIError` with its message escaped when that message holds control characters;
    /// ArgumentParser's own errors (exit codes, validation) pass as they are.
    static func escapingMessage(of error: any Error) -> any Error {
        if error is ExitCode || error is CleanExit || error is ValidationError { return error }
        let message = Self.message(for: error)
        let escaped = TextEscaping.escapingControlCharacters(message, keepingLineFeeds: true)
        return escaped == message ? error : CLIError(escaped)
    }
}
