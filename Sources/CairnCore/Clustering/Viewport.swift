import Foundation

/// A map viewport: the box shown and its size on screen.
public struct Viewport: Hashable, Sendable {
    /// The area shown (west above east crosses the antimeridian).
    public let box: BoundingBox
    /// Width on screen, in pixels.
    public let widthPixels: Int
    /// Height on screen, in pixels.
    public let heightPixels: Int

    /// Creates a viewport.
    /// - Throws: `GridClusteringError.invalidSize` when a side is not in 1...`maxSidePixels`, `.emptyBox` when the
    ///   box has no width or no height in Web Mercator.
    /// - Complexity: O(1).
    public init(box: BoundingBox, widthPixels: Int, heightPixels: Int) throws(GridClusteringError) {
        guard (1...Self.maxSidePixels).contains(widthPixels), (1...Self.maxSidePixels).contains(heightPixels) else {
            throw .invalidSize(width: widthPixels, height: heightPixels)
        }
        self.box = box
        self.widthPixels = widthPixels
        self.heightPixels = heightPixels
        let span = Self.span(of: box)
        guard span.width > 0, span.height > 0 else { throw .emptyBox(box) }
    }

    /// The viewport of `box` on a map at `zoom` of `tileSizePixels`-pixel tiles: the box's Web Mercator size at
    /// that scale, in whole pixels.
    /// - Throws: `GridClusteringError.invalidZoom` unless 0 <= zoom <= 30, `.invalidTileSize` unless the tile size is
    ///   positive and finite, `.emptyBox`, and `.invalidSize` when a side rounds outside 1...`maxSidePixels`.
    /// - Complexity: O(1).
    public init(box: BoundingBox, zoom: Double, tileSizePixels: Double = 256) throws(GridClusteringError) {
        try Self.checkScale(zoom: zoom, tileSizePixels: tileSizePixels)
        let span = Self.span(of: box), scale = pow(2, zoom) * tileSizePixels
        guard span.width > 0, span.height > 0 else { throw .emptyBox(box) }
        // Sides beyond any accepted size are reported capped, so the conversion cannot overflow.
        func pixels(_ v: Double) -> Int { Int(min((v * scale).rounded(), 1e12)) }
        try self.init(box: box, widthPixels: pixels(span.width), heightPixels: pixels(span.height))
    }

    /// Refuses a zoom outside 0...30 and a tile size that is not a positive finite number of pixels.
    private static func checkScale(zoom: Double, tileSizePixels: Double) throws(GridClusteringError) {
        guard zoom >= 0, zoom <= 30 else { throw .invalidZoom(zoom) }
        guard tileSizePixels > 0, tileSizePixels.isFinite else { throw .invalidTileSize(tileSizePixels) }
    }

    /// A box's width and height in Web Mercator (unit-square) units; the width runs east across the antimeridian.
    private static func span(of box: BoundingBox) -> (width: Double, height: Double) {
        let arc = WebMercator.xArc(of: box)
        return (arc.east - arc.west, WebMercator.y(latitude: box.south) - WebMercator.y(latitude: box.north))
    }

    /// The viewport of a map centred on `center` at `zoom`, `widthPixels` × `heightPixels` pixels of
    /// `tileSizePixels`-pixel tiles (256 for raster tiles, 512 for vector tiles): its box crosses the antimeridian
    /// when it reaches past it, stops at the Mercator limit, and spans every longitude when wider than the world.
    /// - Throws: `GridClusteringError.invalidZoom` unless 0 <= zoom <= 30, `.invalidTileSize` unless the tile size is
    ///   positive and finite, `.invalidSize` when a side is not in 1...`maxSidePixels`.
    /// - Complexity: O(1).
    public init(center: Coordinate, zoom: Double, widthPixels: Int, heightPixels: Int, tileSizePixels: Double = 256)
        throws(GridClusteringError) {
        try Self.checkScale(zoom: zoom, tileSizePixels: tileSizePixels)
        let scale = pow(2, zoom) * tileSizePixels
        let x = WebMercator.x(longitude: center.longitude), y = WebMercator.y(latitude: center.latitude)
        let halfWidth = Double(widthPixels) / 2 / scale, halfHeight = Double(heightPixels) / 2 / scale
        var west = WebMercator.longitude(x: x - halfWidth), east = WebMercator.longitude(x: x + halfWidth)
        if east - west >= 360 { (west, east) = (-180, 180) }
        if west < -180 { west += 360 }
        if east > 180 { east -= 360 }
        let north = WebMercator.latitude(y: max(0, y - halfHeight)), south = WebMercator.latitude(y: min(1, y + halfHeight))
        // Corners of valid Mercator positions are valid coordinates; the world is the safe fallback.
        let box = (try? BoundingBox(west: west, south: south, east: east, north: north)) ?? .world
        try self.init(box: box, widthPixels: widthPixels, heightPixels: heightPixels)
    }

    /// The largest viewport side accepted, in pixels (16K screens; it bounds the grid's memory).
    public static let maxSidePixels = 16_384
}
