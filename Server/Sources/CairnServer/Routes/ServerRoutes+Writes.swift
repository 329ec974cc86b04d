import CairnCore
import CairnGEOS
import CairnIO
import Hummingbird

extension ServerRoutes {
    /// `PUT /features/{id}`: one GeoJSON Feature, stored under `id` (its own id, when it has one, must be the same).
    /// A Polygon or MultiPolygon must be valid by GEOS's rules, as at import (see `validPolygons`).
    func putFeature(_ request: Request, id: String) async throws -> Response {
        try authorize(request)
        let features = try await readFeatures(request, format: .geojson)
        guard features.count == 1, let feature = features.first else {
            throw RequestError(.badRequest, "the body must hold one GeoJSON Feature, it holds \(features.count)")
        }
        guard feature.id == id else {
            throw RequestError(.badRequest, "the feature's id '\(feature.id)' is not the id of the path, '\(id)'", parameter: "id")
        }
        try validPolygons(features, naming: false)
        let (_, generation) = try await served.write(upserting: [feature], deleting: [])
        return written(["\"upserted\":1"], generation)
    }

    /// `DELETE /features/{id}`: 200 when it was there, 404 when not.
    func deleteFeature(_ request: Request, id: String) async throws -> Response {
        try authorize(request)
        let (deleted, generation) = try await served.write(upserting: [], deleting: [id])
        guard !deleted.isEmpty else { throw RequestError(.notFound, "no feature with id '\(id)'", parameter: "id") }
        return written(["\"deleted\":1"], generation)
    }

    /// `POST /features`: a FeatureCollection (`application/geo+json`), GeoJSON text sequence
    /// (`application/geo+json-seq`), JSON lines (`application/x-ndjson`) or CSV (`text/csv`), in one transaction:
    /// every feature or, when any record is refused, none (400 listing the refusals; an invalid polygon is a 400
    /// naming its feature, see `validPolygons`).
    func postFeatures(_ request: Request) async throws -> Response {
        try authorize(request)
        let type = request.headers[.contentType] ?? "application/geo+json"
        let format: InputFormat = if type.contains("geo+json-seq") { .geojsonSeq }
            else if type.contains("ndjson") || type.contains("jsonl") { .jsonLines }
            else if type.contains("csv") { .csv }
            else { .geojson }
        let features = try await readFeatures(request, format: format)
        try validPolygons(features, naming: true)
        let (_, generation) = try await served.write(upserting: features, deleting: [])
        return written(["\"upserted\":\(features.count)"], generation)
    }

    /// Refuses a write without the configured bearer token: 403 when the server is read-only, 401 otherwise.
    private func authorize(_ request: Request) throws {
        guard let token = configuration.writeToken else {
            throw RequestError(.forbidden, "this server is read-only: start it with --write-token (or CAIRN_WRITE_TOKEN) to allow writes")
        }
        guard let given = request.headers[.authorization], given == "Bearer " + token else {
            throw RequestError(.unauthorized, "writes need the header 'Authorization: Bearer TOKEN' with the server's write token")
        }
    }

    /// The features of the body in `format` (`kind=` gives the kind where a record has none, as `cairn import --kind`);
    /// any refused record is a 400 naming up to 20 of them, with their lines.
    private func readFeatures(_ request: Request, format: InputFormat) async throws -> [Feature] {
        let parameters = QueryParameters(request)
        let kind = try parameters.text("kind").map { name in
            guard let kind = FeatureKind(rawValue: name) else { throw RequestError(.badRequest, "kind '\(name)' is not a kind", parameter: "kind") }
            return kind
        }
        let body = try await SavedBody.save(request, maxBytes: configuration.maxBodyBytes, fileExtension: format.rawValue)
        let state = served.state
        let options = ImportOptions(kind: kind, placeLookup: { state.index.feature(id: $0) })
        var features: [Feature] = [], refusals: [String] = [], refused = 0
        do {
            try openFeatureReader(path: body.path, format: format, options: options).forEachRecord { features.append($0) } rejected: { rejection in
                refused += 1
                if refusals.count < 20 { refusals.append("line \(rejection.line): \(rejection.field.map { "field '\($0)': " } ?? "")\(rejection.reason)") }
            }
        } catch {
            throw RequestError(.badRequest, "the body cannot be read as \(format.rawValue): \(error)")
        }
        guard refused == 0 else {
            throw RequestError(.badRequest, "\(refused) of \(refused + features.count) records refused, nothing written: " + refusals.joined(separator: "; "))
        }
        return features
    }

    /// Refuses the write when a feature's Polygon or MultiPolygon is invalid by GEOS's rules (`FeatureShapeCheck`, the
    /// import's rule; the server does not repair, as an import without `--make-valid`): 400 with GEOS's reason and
    /// `parameter` `geometry`, `naming` the feature (its number in the body and id) for a body of several. Polygons
    /// need GEOS: without libgeos_c a body holding one is a 503 (points and lines are still accepted).
    /// - Complexity: O(n log n) in each polygon's positions; O(1) per point or line.
    private func validPolygons(_ features: [Feature], naming: Bool) throws {
        var check = FeatureShapeCheck(makeValid: false)
        for (index, feature) in features.enumerated() {
            let result: Result<Feature, InvalidShape>
            do throws(GEOSError) {
                result = try check.checked(feature)
            } catch {
                throw RequestError(.serviceUnavailable, """
                    polygons need libgeos (GEOS) to be checked, and this server cannot use it: \(error.message); \
                    points and lines are still accepted
                    """, parameter: "geometry")
            }
            guard case .failure(let invalid) = result else { continue }
            let said = "invalid \(invalid.kind.name): \(invalid.reason)"
            throw RequestError(.badRequest, naming ? "feature \(index + 1) of \(features.count) (id '\(feature.id)'): \(said); nothing written" : said,
                               parameter: "geometry")
        }
    }

    /// The answer to a write: what it did and the store generation it made (the state served now may be later).
    private func written(_ fields: [String], _ generation: Int64) -> Response {
        let body = "{" + (fields + ["\"generation\":\(generation)"]).joined(separator: ",") + "}\n"
        return Answer.ok(Array(body.utf8), contentType: "application/json", entityTag: nil)
    }
}
