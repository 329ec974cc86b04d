import ArgumentParser
import CairnCore

/// The clustering options `cairn cluster` and `cairn tiles` share: supercluster's radius, extent, minimum points and
/// zooms, the aggregates, the precision and the antimeridian.
struct ClusteringOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp("Cluster radius in pixels.", valueName: "px"))
    var radius: Double = 40

    @Option(parsing: .unconditional, help: ArgumentHelp("Tile extent in pixels (the radius is relative to it).", valueName: "n"))
    var extent: Double = 512

    @Option(name: .customLong("min-points"), parsing: .unconditional, help: ArgumentHelp("The least points a cluster holds.", valueName: "n"))
    var minPoints: Int = 2

    @Option(name: .customLong("min-zoom"), parsing: .unconditional, help: ArgumentHelp("The lowest zoom clustered.", valueName: "z"))
    var minZoom: Int = 0

    @Option(name: .customLong("max-zoom"), parsing: .unconditional, help: ArgumentHelp("The highest zoom clustered (at most 24).", valueName: "z"))
    var maxZoom: Int = 16

    @Option(name: .customLong("sum"), help: ArgumentHelp("A numeric attribute to aggregate (sum, min, max, mean); repeatable.", valueName: "attribute"))
    var sums: [String] = []

    @Option(name: .customLong("count-by"), help: ArgumentHelp("A category attribute counted per value on each cluster (or 'kind'); one.", valueName: "attribute"))
    var countBy: [String] = []

    @Option(help: "How projected positions are held: float32 as supercluster holds them, or float64.")
    var precision: ClusterPrecision = .float32

    @Flag(inversion: .prefixedNo, help: "Cluster across the antimeridian (--no-wrap: never, as supercluster does).")
    var wrap = true

    /// Refuses more than one `--count-by`.
    func checkCountBy() throws {
        guard countBy.count <= 1 else {
            throw ValidationError("--count-by takes one attribute, got \(countBy.count): \(countBy.joined(separator: ", "))")
        }
    }

    /// Refuses a radius, extent, minimum or zoom out of range.
    func checkRanges() throws {
        try OptionRange.checkPositive("--radius", radius)
        try OptionRange.checkPositive("--extent", extent)
        try OptionRange.check("--min-points", minPoints, atLeast: 1)
        try OptionRange.check("--min-zoom", minZoom, in: 0...ClusterOptions.zoomLimit)
        try OptionRange.check("--max-zoom", maxZoom, in: minZoom...ClusterOptions.zoomLimit)
    }

    /// The options for `ClusterIndex`.
    /// - Throws: `ValidationError` with the library's message when they do not go together.
    func clusterOptions() throws -> ClusterOptions {
        do {
            return try ClusterOptions(radiusPixels: radius, extent: extent, minZoom: minZoom, maxZoom: maxZoom, minPoints: minPoints,
                                      numericAttributes: sums, categoryAttribute: countBy.first, precision: precision,
                                      wrapsAntimeridian: wrap)
        } catch {
            throw ValidationError("\(error)")
        }
    }
}
