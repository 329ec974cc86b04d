import CairnCore
import CairnIO
import Hummingbird

extension ServerRoutes {
    /// `GET /geohash/encode?lat=&long=[&precision=9]`: the point's geohash, as `cairn geohash encode` prints it.
    func geohashEncode(_ request: Request) throws -> Response {
        let parameters = QueryParameters(request)
        let point = try parameters.coordinate()
        let precision = try parameters.integer("precision", in: Geohash.precisionRange, default: 9)
        return text(try geohash { () throws(GeohashError) in try Geohash.encode(point, precision: precision) } + "\n")
    }

    /// `GET /geohash/decode/{hash}`: the cell's centre and bounds as JSON, as `cairn geohash decode` prints them.
    func geohashDecode(_ hash: String) throws -> Response {
        let cell = try geohash { () throws(GeohashError) in try Geohash.decode(hash) }
        return Answer.ok(Array(GeohashText.json(cell).utf8), contentType: "application/json", entityTag: nil)
    }

    /// `GET /geohash/neighbors/{hash}`: one `DIRECTION HASH` line per neighbour (fewer at the poles).
    func geohashNeighbors(_ hash: String) throws -> Response {
        let neighbors = try geohash { () throws(GeohashError) in try Geohash.neighbors(hash) }
        return text(GeohashText.neighborLines(neighbors))
    }

    /// `GET /geohash/cover?bbox=W,S,E,N[&max_cells=32]`: the cells covering the box, one per line.
    func geohashCover(_ request: Request) throws -> Response {
        let parameters = QueryParameters(request)
        guard let bbox = parameters.text("bbox") else { throw RequestError(.badRequest, "bbox is required: west,south,east,north", parameter: "bbox") }
        let v = try parsing { () throws(QueryArgumentError) in try QueryArgument.numbers(bbox, count: 4, argument: "bbox", shape: "west,south,east,north") }
        let maxCells = try parameters.integer("max_cells", in: 1...1_000_000, default: 32)
        let cells = try geohash { () throws(GeohashError) in try Geohash.cover(west: v[0], south: v[1], east: v[2], north: v[3], maxCells: maxCells) }
        return text(cells.map { $0 + "\n" }.joined())
    }

    /// `GET /geohash/prefix/{prefix}`: the features whose location's geohash starts with the prefix.
    func geohashPrefix(_ request: Request, prefix: String) throws -> Response {
        let parameters = QueryParameters(request)
        let filter = try parameters.filter()
        let limit = try parameters.limit(maximum: configuration.maxResults), format = try Answer.format(of: request, parameters: parameters)
        return try read(request) { state in
            var stats = QueryStats()
            let hits = try geohash { () throws(GeohashError) in try state.index.withGeohashPrefix(prefix, filter: filter, stats: &stats) }
            return results(hits, limit: limit, format: format)
        }
    }

    private func text(_ body: String) -> Response {
        Answer.ok(Array(body.utf8), contentType: "text/plain; charset=utf-8", entityTag: nil)
    }

    private func geohash<T>(_ body: () throws(GeohashError) -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw RequestError(.badRequest, "\(error)", parameter: "hash")
        }
    }
}
