import CairnIO
import Hummingbird

/// Turning an answer's bytes into a response: the content type of its format, the state's `ETag` (a request whose
/// `If-None-Match` names it gets 304 with no body), and no caching beyond revalidation.
enum Answer {
    /// The format a client asks for: `format=geojson|json|csv|ids`, else by `Accept` (`text/csv`, `application/json`),
    /// else GeoJSON.
    static func format(of request: Request, parameters: QueryParameters) throws -> QueryResultFormat {
        if let name = parameters.text("format") {
            guard let format = QueryResultFormat(rawValue: name) else {
                let known = QueryResultFormat.allCases.map(\.rawValue).joined(separator: ", ")
                throw RequestError(.badRequest, "format '\(name)' is not one of \(known)", parameter: "format")
            }
            return format
        }
        let accept = request.headers[.accept] ?? ""
        if accept.contains("text/csv") { return .csv }
        if accept.contains("application/json") && !accept.contains("geo+json") { return .json }
        return .geojson
    }

    /// The media type of `format`.
    static func contentType(_ format: QueryResultFormat) -> String {
        switch format {
        case .geojson: "application/geo+json"
        case .json: "application/json"
        case .csv: "text/csv; charset=utf-8"
        case .ids: "text/plain; charset=utf-8"
        }
    }

    /// Whether the client already holds this state's answer (`If-None-Match` names `entityTag`, or `*`).
    static func isNotModified(_ request: Request, entityTag: String) -> Bool {
        guard let tags = request.headers[.ifNoneMatch] else { return false }
        return tags.split(separator: ",").contains { $0.trimmingSpaces == entityTag || $0.trimmingSpaces == "*" }
    }

    /// A 304 for a client that holds the answer.
    static func notModified(entityTag: String) -> Response {
        Response(status: .notModified, headers: [.eTag: entityTag])
    }

    /// A 200 with `bytes`, their media type and the state's tag; `extra` headers added.
    static func ok(_ bytes: [UInt8], contentType: String, entityTag: String?, extra: HTTPFields = [:]) -> Response {
        var headers: HTTPFields = [.contentType: contentType, .cacheControl: "no-cache"]
        if let entityTag { headers[.eTag] = entityTag }
        headers.append(contentsOf: extra)
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}

extension Substring {
    /// The text without leading and trailing spaces.
    var trimmingSpaces: Substring {
        var text = self
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return text
    }
}
