import CairnIO

/// The files the map page loads beside itself, read once when the server starts: Leaflet's script and style from
/// Debian's `libjs-leaflet` (no network is assumed, so no CDN), and the optional outline drawn under the data. A
/// missing one is answered with 404, and the page says what to install.
struct MapAssets: Sendable {
    /// Where Debian's `libjs-leaflet` installs Leaflet.
    static let debianLeafletFolder = "/usr/share/javascript/leaflet"

    /// `leaflet.js`, or nil when Leaflet is not installed.
    let leafletScript: [UInt8]?
    /// `leaflet.css`, or nil when Leaflet is not installed.
    let leafletStyle: [UInt8]?
    /// The outline GeoJSON (`--basemap`), or nil for none.
    let basemap: [UInt8]?

    /// Reads Leaflet from `leafletFolder` (absent files are nil) and the outline from `basemapPath`.
    /// - Throws: `ServerError` when `basemapPath` is given but cannot be read, so that a typo is said at start.
    /// - Complexity: O(size of the files).
    init(leafletFolder: String, basemapPath: String?) throws {
        leafletScript = try? Self.contents(of: leafletFolder + "/leaflet.js")
        leafletStyle = try? Self.contents(of: leafletFolder + "/leaflet.css")
        if let basemapPath {
            do {
                basemap = try Self.contents(of: basemapPath)
            } catch {
                throw ServerError.unreadableBasemap(basemapPath, "\(error)")
            }
        } else {
            basemap = nil
        }
    }

    /// The bytes of the file at `path` (gzip decompressed when it is gzip).
    private static func contents(of path: String) throws -> [UInt8] {
        let source = try ByteSource(path: path)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = try chunk.withUnsafeMutableBytes { try source.read(into: $0) }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
        }
    }
}
