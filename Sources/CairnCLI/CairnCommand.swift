import ArgumentParser

/// The root of the `cairn` command line.
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
