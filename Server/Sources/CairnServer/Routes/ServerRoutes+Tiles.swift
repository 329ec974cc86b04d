import CairnCore
import CairnIO
import Hummingbird

extension ServerRoutes {
    /// The media type of a Mapbox Vector Tile.
    static let vectorTileType = "application/vnd.mapbox-vector-tile"

    /// `GET /tiles/{z}/{x}/{y}.mvt[?kind=&where=&extent=]`: the map tile of the current clusters as a Mapbox Vector
    /// Tile (`ClusterVectorTileWriter`: a `clusters` and a `points` layer, entries within the cluster radius beyond
    /// the tile's edges kept so a symbol on an edge is drawn whole, and a `shapes` layer of the served features'
    /// lines and polygons clipped to the tile and that buffer), from the same hierarchy and with the same ids as
    /// `/clusters`; `extent` units per tile side (default 4096). A tile with nothing in it is a 204. Gzip, ETag and
    /// the answer cache as for every read.
    func tile(_ request: Request, z zText: String, x xText: String, y yText: String) async throws -> Response {
        guard yText.hasSuffix(".mvt"), let z = Int(zText), let x = Int(xText), let y = Int(yText.dropLast(4)) else {
            throw RequestError(.notFound, "tiles are /tiles/{z}/{x}/{y}.mvt with whole numbers, got /tiles/\(zText)/\(xText)/\(yText)")
        }
        guard (0...ClusterOptions.zoomLimit).contains(z) else {
            throw RequestError(.badRequest, "zoom must be 0 to \(ClusterOptions.zoomLimit), got \(z)", parameter: "z")
        }
        guard (0..<(1 << z)).contains(x), (0..<(1 << z)).contains(y) else {
            throw RequestError(.badRequest, "at zoom \(z), x and y are 0 to \((1 << z) - 1), got \(x) and \(y)", parameter: "x/y")
        }
        let parameters = QueryParameters(request)
        let extent = try parameters.integer("extent", in: 1...Int(ClusterVectorTileWriter.maxExtent),
                                            default: Int(ClusterVectorTileWriter.defaultExtent))
        let state = served.state
        if let notModified = notModified(request, state) { return notModified }
        let clusters = try await hierarchy(state, parameters)
        var response = try read(request, from: state) { state in
            do {
                let writer = try ClusterVectorTileWriter(index: clusters.index, features: clusters.features, shapes: clusters.shapes,
                                                         clusterIDOffset: state.clusterIDOffset, extent: UInt32(extent))
                return AnswerCache.Entry(body: try writer.encodeTile(z: z, x: x, y: y),
                                         contentType: Self.vectorTileType)
            } catch {
                throw RequestError(.internalServerError, "tile \(z)/\(x)/\(y): \(error)")
            }
        }
        if response.body.contentLength == 0 {
            response.status = .noContent
            response.headers[.contentType] = nil
        }
        return response
    }

    /// `GET /tiles.json`: TileJSON 3.0.0 for the tiles: their URL on the host the client asked (`Host`), zooms 0
    /// to one past the clustering's `maxZoom` (where every point stands alone; map SDKs overzoom beyond), the
    /// features' bounds, and the layers with their fields (the points' are every attribute name in the store; the
    /// `shapes` layer, listed when a feature has a line or polygon, has the points' fields).
    /// - Complexity: O(n) for n features the first time per state, then kept with the answers.
    func tileJSON(_ request: Request) async throws -> Response {
        let state = served.state
        if let notModified = notModified(request, state) { return notModified }
        let clusters = try await hierarchy(state, QueryParameters(request))
        let host = request.head.authority ?? "\(configuration.host):\(configuration.port)"
        return try read(request, from: state) { _ in
            AnswerCache.Entry(body: Array(Self.tileJSON(host: host, clusters: clusters).utf8), contentType: "application/json")
        }
    }

    /// The TileJSON text for `clusters` served at `host`.
    private static func tileJSON(host: String, clusters: ServedClusters.Clusters) -> String {
        var west = 180.0, south = 90.0, east = -180.0, north = -90.0
        var names: Set<String> = []
        for feature in clusters.features {
            west = min(west, feature.location.longitude)
            east = max(east, feature.location.longitude)
            south = min(south, feature.location.latitude)
            north = max(north, feature.location.latitude)
            names.formUnion(feature.attributes.keys)
        }
        let bounds = clusters.features.isEmpty ? "[-180,-85.051129,180,85.051129]" : "[\(west),\(south),\(east),\(north)]"
        let maxZoom = clusters.index.options.maxZoom + 1
        let clusterFields = ["cluster": "Boolean", "cluster_id": "Number", "point_count": "Number",
                             "point_count_abbreviated": "Number or String", "expansion_zoom": "Number",
                             "identical_points": "Boolean"]
        var pointFields = ["id": "String (when the id is not a plain number)", "kind": "String", "radiusMeters": "Number"]
        for name in names { pointFields[name] = "attribute" }
        func fields(_ table: [String: String]) -> String {
            "{" + table.sorted { $0.key < $1.key }.map { "\(TextEscaping.jsonString($0.key)):\(TextEscaping.jsonString($0.value))" }
                .joined(separator: ",") + "}"
        }
        let tiles = TextEscaping.jsonString("http://\(host)/tiles/{z}/{x}/{y}.mvt")
        let shapesLayer = clusters.shapes.isEmpty ? ""
            : ",{\"id\":\"\(ClusterVectorTileWriter.shapesLayerName)\",\"minzoom\":0,\"maxzoom\":\(maxZoom),\"fields\":\(fields(pointFields))}"
        return """
            {"tilejson":"3.0.0","name":"cairn","scheme":"xyz","tiles":[\(tiles)],"minzoom":0,"maxzoom":\(maxZoom),\
            "bounds":\(bounds),"vector_layers":[\
            {"id":"\(ClusterVectorTileWriter.clustersLayerName)","minzoom":0,"maxzoom":\(maxZoom),"fields":\(fields(clusterFields))},\
            {"id":"\(ClusterVectorTileWriter.pointsLayerName)","minzoom":0,"maxzoom":\(maxZoom),"fields":\(fields(pointFields))}\
            \(shapesLayer)]}

            """
    }
}
