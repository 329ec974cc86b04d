import ArgumentParser
import CairnCore
import CairnIO

/// `--kind` and `--where`: the attribute filter that the query commands and `cairn cluster` share.
struct FilterOptions: ParsableArguments {
    @Option(name: .customLong("kind"), help: "Only features of this kind (repeat for several).")
    var kinds: [FeatureKind] = []

    @Option(name: .customLong("where"), help: ArgumentHelp(
        "An attribute condition (repeatable, all must hold): NAME=VALUE, NAME!=VALUE, NAME<VALUE, NAME>=VALUE, NAME (true), !NAME, NAME~MEMBER.",
        valueName: "condition"))
    var conditions: [String] = []

    /// The filter from `--kind` and `--where`.
    func filter() throws -> FeatureFilter {
        try validating { () throws(QueryArgumentError) in try QueryArgument.filter(kinds: kinds, conditions: conditions, conditionArgument: "--where") }
    }
}
