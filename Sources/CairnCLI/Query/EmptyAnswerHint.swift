import CairnCore

/// Why a query found nothing, when the index can tell: printed on stderr, so that an empty answer explains itself
/// instead of leaving the user to guess between "nothing there" and "asked the wrong way".
struct EmptyAnswerHint {
    /// A reason the command knows (a box given with latitude and longitude swapped; no feature with a radius).
    typealias CommandHint = @Sendable (FeatureIndex, FeatureFilter) -> String?

    /// The hints that apply to an empty answer of a query on `index` with `filter`, most specific first: the
    /// store is empty; no feature has a kind asked for; the command's own hint.
    /// - Complexity: O(n) for a kind filter (each feature's kind is read), otherwise that of `command`.
    static func hints(index: FeatureIndex, filter: FeatureFilter, command: CommandHint?) -> [String] {
        guard index.count > 0 else { return ["the store holds no features: import some first (cairn import FILE)"] }
        var hints: [String] = []
        if !filter.kinds.isEmpty {
            var counts: [FeatureKind: Int] = [:]
            for position in 0..<index.count { counts[index.features.kind(at: position), default: 0] += 1 }
            if filter.kinds.allSatisfy({ counts[$0] == nil }) {
                let asked = filter.kinds.map(\.rawValue).sorted().joined(separator: " or ")
                let held = counts.sorted { $0.key.rawValue < $1.key.rawValue }
                    .map { "\(Terminal.grouped($0.value)) \($0.key.rawValue)" }.joined(separator: ", ")
                hints.append("no feature of kind \(asked) in the store (it holds \(held))")
            }
        }
        if let hint = command?(index, filter) { hints.append(hint) }
        return hints
    }

    /// For a box that found nothing: whether the box with latitudes and longitudes swapped finds something (corners
    /// given as LON,LAT, or a box as SOUTH,WEST,NORTH,EAST), else where the store's features lie.
    /// - Complexity: one more box query, plus O(n) for the extent.
    static func box(_ box: BoundingBox) -> CommandHint {
        { index, filter in
            if let swapped = try? BoundingBox(west: box.south, south: box.west, east: box.north, north: box.east),
               !index.search(in: swapped, filter: filter).isEmpty {
                return "the box with latitude and longitude swapped holds features: --bbox takes WEST,SOUTH,EAST,NORTH "
                    + "and --sw/--ne take LAT,LON"
            }
            guard let extent = index.extent else { return nil }
            return "nothing in \(box); the store's \(Terminal.grouped(index.count)) features lie within \(extent)"
        }
    }

    /// For `containing`: no feature with a radius or a shape can contain anything (a store with shapes gets no
    /// hint: its polygons may simply lie elsewhere).
    static let radius: CommandHint = { index, _ in
        index.radiusCount == 0 && index.shapeCount == 0
            ? "no feature in the store has a radius, so none can contain a point: import with --radius, or a radius column"
            : nil
    }
}
