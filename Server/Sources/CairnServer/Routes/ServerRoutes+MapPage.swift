import Hummingbird

extension ServerRoutes {
    /// `GET /`: the map page (`MapPage`).
    func mapPage() -> Response {
        Answer.ok(Array(MapPage.html.utf8), contentType: "text/html; charset=utf-8", entityTag: nil)
    }

    /// `GET /leaflet/leaflet.js` and `/leaflet/leaflet.css`: Leaflet as Debian installed it, or 404 saying so.
    func leaflet(file: String) throws -> Response {
        let asset: (bytes: [UInt8]?, type: String)? = switch file {
        case "leaflet.js": (mapAssets.leafletScript, "text/javascript; charset=utf-8")
        case "leaflet.css": (mapAssets.leafletStyle, "text/css; charset=utf-8")
        default: nil
        }
        guard let asset else { throw RequestError(.notFound, "no file '\(file)': the map page needs leaflet.js and leaflet.css") }
        guard let bytes = asset.bytes else {
            throw RequestError(.notFound, "Leaflet is not installed in \(configuration.leafletFolder): apt install libjs-leaflet")
        }
        return Answer.ok(bytes, contentType: asset.type, entityTag: nil)
    }

    /// `GET /basemap.geojson`: the outline the page draws under the data (`cairn serve --basemap`), or 404.
    func basemap() throws -> Response {
        guard let bytes = mapAssets.basemap else {
            throw RequestError(.notFound, "no outline was given (cairn serve --basemap FILE.geojson)")
        }
        return Answer.ok(bytes, contentType: "application/geo+json", entityTag: nil)
    }
}
