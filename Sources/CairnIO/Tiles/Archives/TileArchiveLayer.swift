/// A vector layer as TileJSON 3.0 describes it (`vector_layers`): its name, and its fields with their types.
public struct TileArchiveLayer: Sendable, Equatable {
    /// The layer's name in the tiles (`clusters`, `points`).
    public let id: String
    /// Each property name and its type as text (`Number`, `String`, `Boolean`, or a short description).
    public let fields: [String: String]

    /// A layer named `id` with `fields`.
    /// - Complexity: O(1).
    public init(id: String, fields: [String: String]) {
        self.id = id
        self.fields = fields
    }
}
