import CairnCore

/// The text of geohash answers, the same for the CLI (`cairn geohash decode`, `neighbors`) and the server.
public enum GeohashText {
    /// A cell as one JSON object: its hash, centre and bounds, with a line feed.
    /// - Complexity: O(1).
    public static func json(_ cell: GeohashCell) -> String {
        "{\"hash\":\"\(cell.hash)\",\"latitude\":\(cell.center.latitude),\"longitude\":\(cell.center.longitude),"
            + "\"west\":\(cell.west),\"south\":\(cell.south),\"east\":\(cell.east),\"north\":\(cell.north)}\n"
    }

    /// One `DIRECTION HASH` line per neighbour, in `GeohashDirection` order (fewer at the poles).
    /// - Complexity: O(1).
    public static func neighborLines(_ neighbors: [GeohashDirection: String]) -> String {
        GeohashDirection.allCases.compactMap { direction in neighbors[direction].map { "\(direction.rawValue) \($0)\n" } }.joined()
    }
}
