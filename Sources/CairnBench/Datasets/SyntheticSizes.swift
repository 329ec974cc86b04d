/// How many rows of each kind the generator writes.
public struct SyntheticSizes: Equatable, Sendable {
    /// Parks.
    public var parks: Int
    /// Trailheads near parks.
    public var trailheads: Int
    /// Places (venues with a check-in radius).
    public var places: Int
    /// Events at places.
    public var events: Int
    /// Users.
    public var users: Int
    /// Check-ins.
    public var checkIns: Int

    /// The given numbers of rows (each defaulting to the sizes `cairn generate` writes).
    /// - Complexity: O(1).
    public init(parks: Int = 2_000, trailheads: Int = 5_000, places: Int = 20_000, events: Int = 10_000,
                users: Int = 5_000, checkIns: Int = 50_000) {
        self.parks = parks
        self.trailheads = trailheads
        self.places = places
        self.events = events
        self.users = users
        self.checkIns = checkIns
    }
}
