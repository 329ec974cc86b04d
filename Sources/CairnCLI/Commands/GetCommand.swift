import ArgumentParser
import CairnCore
import CairnIO
import CairnStore

/// How a single feature is printed.
enum FeatureFormat: String, ExpressibleByArgument, CaseIterable {
    case geojson, json
}

/// `cairn get ID`: one feature by id.
struct GetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "get", abstract: "Print one feature by id.")

    @Argument(help: "The feature's id.")
    var id: String

    @Option(help: "Output format.")
    var format: FeatureFormat = .geojson

    @OptionGroup var store: StoreOptions

    @Option(name: .customLong("t-srs"), help: OutputCoordinateSystem.help)
    var outputSystem: String?

    func validate() throws { _ = try OutputCoordinateSystem.transform(outputSystem) }

    func run() throws {
        let found = store.isPostgres ? try store.postgresFeature(id: id) : try store.open(create: false).feature(id: id)
        guard let feature = found else {
            throw CLIError("no feature with id '\(id)' in \(store.path)")
        }
        if let coordinates = try OutputCoordinateSystem.coordinates(outputSystem, of: [feature]) {
            print(format == .geojson ? FeatureEncoding.geoJSON(feature, coordinates: coordinates)
                                     : FeatureEncoding.json(feature, coordinates: coordinates))
            return
        }
        print(format == .geojson ? FeatureEncoding.geoJSON(feature) : FeatureEncoding.json(feature))
    }
}

/// `cairn delete ID...`: removes features by id.
struct DeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete features by id.",
        discussion: "Exit status 0 when every id was found and deleted, 1 when some id was not in the store (the others are still deleted)."
    )

    @Argument(help: "The ids to delete.")
    var ids: [String]

    @OptionGroup var store: StoreOptions

    func run() throws {
        let opened = try store.open(create: false)
        var missing: [String] = []
        for id in ids {
            if try opened.delete(id: id) { print("deleted \(id)") } else { missing.append(id) }
        }
        if !missing.isEmpty {
            throw CLIError("no feature with id \(missing.map { "'\($0)'" }.joined(separator: ", ")) in \(store.path)")
        }
    }
}
