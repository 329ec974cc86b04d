import ArgumentParser

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
                      BBoxCommand.self, AroundCommand.self, NearestCommand.self, ContainingCommand.self, GeohashCommand.self,
                      BenchCommand.self, SnapshotCommand.self, ClusterCommand.self, CheckInsCommand.self]
    )

    public init() {}
}
