import CairnCore
import CairnIO
import HTTPTypes
import Hummingbird

extension ServerRoutes {
    /// `GET /places/around_location?lat=&long=&rad=`: the features within `rad` (the CLI's units: 500, 1.2km, 3mi),
    /// nearest first, with `distance_m`; `kind`, `where`, `limit`, `model`.
    func around(_ request: Request) throws -> Response {
        let parameters = QueryParameters(request)
        let center = try parameters.coordinate()
        let radius = try parameters.distanceMeters("rad", "radius", required: true) ?? 0
        let model = try distanceModel(parameters), filter = try parameters.filter()
        let limit = try parameters.limit(maximum: configuration.maxResults), format = try Answer.format(of: request, parameters: parameters)
        return try read(request) { state in
            var stats = QueryStats()
            return results(state.index.within(radiusMeters: radius, of: center, model: model, filter: filter, stats: &stats), limit: limit, format: format)
        }
    }

    /// `GET /nearest?lat=&long=&k=[&max_distance=]`: the k nearest features, nearest first.
    func nearest(_ request: Request) throws -> Response {
        let parameters = QueryParameters(request)
        let center = try parameters.coordinate()
        let k = try parameters.integer("k", in: 1...configuration.maxResults, default: 20)
        let maxDistance = try parameters.distanceMeters("max_distance", required: false)
        let model = try distanceModel(parameters), filter = try parameters.filter()
        let limit = try parameters.limit(maximum: configuration.maxResults), format = try Answer.format(of: request, parameters: parameters)
        return try read(request) { state in
            var stats = QueryStats()
            let hits = state.index.nearest(to: center, count: k, maxDistanceMeters: maxDistance, model: model, filter: filter, stats: &stats)
            return results(hits, limit: limit, format: format)
        }
    }

    /// `GET /containing?lat=&long=`: the features whose circle (location and `radiusMeters`) holds the point.
    func containing(_ request: Request) throws -> Response {
        let parameters = QueryParameters(request)
        let point = try parameters.coordinate()
        let model = try distanceModel(parameters), filter = try parameters.filter()
        let limit = try parameters.limit(maximum: configuration.maxResults), format = try Answer.format(of: request, parameters: parameters)
        return try read(request) { state in
            var stats = QueryStats()
            return results(state.index.containing(point, model: model, filter: filter, stats: &stats), limit: limit, format: format)
        }
    }

    /// `GET /features?bbox=W,S,E,N` (or `sw=LAT,LON&ne=LAT,LON`): the viewfinder, in the CLI's order and bytes.
    ///
    /// An answer cut at `limit` (or at the server's most results) says where to go on: the header
    /// `Cairn-Next-Cursor` (and a `Link` with `rel="next"`) gives the store rowid of the page's last feature, and
    /// `cursor=` answers the features after it. The order is the store's rowid order, which edits never reshuffle:
    /// a new or edited feature takes a rowid after all others. So across pages, while edits happen, every feature
    /// that stays is shown exactly once, a new one is shown on a later page, a deleted one is not shown again, and an
    /// edited one can show twice (before and after its edit, with its new content the second time).
    func features(_ request: Request) throws -> Response {
        let parameters = QueryParameters(request)
        let box = try parameters.box(), filter = try parameters.filter()
        let limit = try parameters.limit(maximum: configuration.maxResults), format = try Answer.format(of: request, parameters: parameters)
        var cursor: Int64?
        if let text = parameters.text("cursor") {
            guard let value = Int64(text) else {
                throw RequestError(.badRequest, "cursor must be the Cairn-Next-Cursor of a previous page, got '\(text)'", parameter: "cursor")
            }
            cursor = value
        }
        return try read(request) { state in
            var stats = QueryStats()
            var hits = state.index.search(in: box, filter: filter, stats: &stats)
            let rowid = { (hit: DynamicHit) in state.rowids[hit.feature.id] ?? .max }
            if let cursor { hits.removeFirst(hits.partitioningIndex { rowid($0) > cursor }) }
            guard hits.count > limit, limit > 0 else { return results(hits, limit: limit, format: format) }
            let next = String(rowid(hits[limit - 1]))
            return results(hits, limit: limit, format: format, headers: [
                .cairnNextCursor: next, .link: "<\(Self.uri(request, replacing: "cursor", with: next))>; rel=\"next\"",
            ])
        }
    }

    /// `GET /features/{id}`: one feature, as `cairn get` prints it (GeoJSON, or `format=json`).
    func feature(_ request: Request, id: String) throws -> Response {
        let json = QueryParameters(request).text("format") == "json"
        return try read(request) { state in
            guard let feature = state.index.feature(id: id) else {
                throw RequestError(.notFound, "no feature with id '\(id)'", parameter: "id")
            }
            let text = (json ? FeatureEncoding.json(feature) : FeatureEncoding.geoJSON(feature)) + "\n"
            return AnswerCache.Entry(body: Array(text.utf8), contentType: json ? "application/json" : "application/geo+json")
        }
    }

    /// The distance model of `model=wgs84|sphere` (WGS84 by default).
    func distanceModel(_ parameters: QueryParameters) throws -> DistanceModel {
        guard let name = parameters.text("model") else { return .wgs84 }
        guard let model = DistanceModel(rawValue: name) else {
            throw RequestError(.badRequest, "model '\(name)' is not one of wgs84, sphere", parameter: "model")
        }
        return model
    }

    /// The request's path and query with parameter `name` set to `value` (URL-safe as it is).
    static func uri(_ request: Request, replacing name: String, with value: String) -> String {
        var pairs = (request.uri.query ?? "").split(separator: "&").filter { !$0.hasPrefix(name + "=") }.map(String.init)
        pairs.append(name + "=" + value)
        return request.uri.path + "?" + pairs.joined(separator: "&")
    }
}

extension Array {
    /// The first index whose element satisfies `belongs`, for a predicate false up to some index and true after.
    /// - Complexity: O(log n).
    func partitioningIndex(where belongs: (Element) -> Bool) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if belongs(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
