/// What a tile archive says about its tiles: the name, the zooms, the area, where a map opens, and the layers with
/// their fields. Both formats carry the same facts: MBTiles as rows of its `metadata` table, PMTiles in its header
/// and JSON metadata.
public struct TileArchiveMetadata: Sendable, Equatable {
    /// A name for people (`cairn`).
    public var name: String
    /// The lowest zoom with tiles.
    public var minZoom: Int
    /// The highest zoom with tiles.
    public var maxZoom: Int
    /// The area the tiles cover, in degrees: west, south, east, north.
    public var bounds: (west: Double, south: Double, east: Double, north: Double)
    /// Where a map opens: longitude and latitude in degrees, and a zoom.
    public var center: (longitude: Double, latitude: Double, zoom: Int)
    /// The vector layers, in the order the tiles hold them.
    public var layers: [TileArchiveLayer]

    /// The facts for an archive.
    /// - Complexity: O(1).
    public init(name: String, minZoom: Int, maxZoom: Int, bounds: (west: Double, south: Double, east: Double, north: Double),
                center: (longitude: Double, latitude: Double, zoom: Int), layers: [TileArchiveLayer]) {
        self.name = name
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.bounds = bounds
        self.center = center
        self.layers = layers
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.name == b.name && a.minZoom == b.minZoom && a.maxZoom == b.maxZoom && a.bounds == b.bounds
            && a.center == b.center && a.layers == b.layers
    }

    /// `vector_layers` as JSON text: each layer with its id, the zooms and its fields sorted by name.
    /// - Complexity: O(f log f) for f fields.
    public var vectorLayersJSON: String {
        var out: [UInt8] = [UInt8(ascii: "[")]
        for (n, layer) in layers.enumerated() {
            if n > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: "{\"id\":".utf8)
            TextEscaping.appendJSONString(layer.id, to: &out)
            out.append(contentsOf: ",\"minzoom\":\(minZoom),\"maxzoom\":\(maxZoom),\"fields\":{".utf8)
            for (m, key) in layer.fields.keys.sorted().enumerated() {
                if m > 0 { out.append(UInt8(ascii: ",")) }
                TextEscaping.appendJSONString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                TextEscaping.appendJSONString(layer.fields[key] ?? "", to: &out)
            }
            out.append(contentsOf: "}}".utf8)
        }
        out.append(UInt8(ascii: "]"))
        return String(decoding: out, as: UTF8.self)
    }

    /// `bounds` as MBTiles and TileJSON write it: `west,south,east,north`.
    /// - Complexity: O(1).
    public var boundsText: String {
        [bounds.west, bounds.south, bounds.east, bounds.north].map(Self.number).joined(separator: ",")
    }

    /// `center` as MBTiles writes it: `longitude,latitude,zoom`.
    /// - Complexity: O(1).
    public var centerText: String {
        Self.number(center.longitude) + "," + Self.number(center.latitude) + ",\(center.zoom)"
    }

    /// A number in CairnIO's one number rule (shortest text that reads back the same).
    static func number(_ value: Double) -> String {
        var out: [UInt8] = []
        TextEscaping.appendJSONNumber(value, to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
