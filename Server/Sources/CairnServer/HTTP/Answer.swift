import CairnIO
import Hummingbird

/// Turning an answer's bytes into a response: the content type of its format, gzip when the client accepts it, the
/// state's `ETag` (a request whose `If-None-Match` names it gets 304 with no body), and no caching beyond
/// revalidation.
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

    /// Answers of at most this many bytes go plain whatever the client accepts: with their headers (about 200 bytes)
    /// they fit one TCP segment (1,460 bytes on Ethernet) either way, so gzip would save no packet, and each answer
    /// compressed costs a deflate stream (zlib sets up about 256 KiB for one).
    static let compressionThresholdBytes = 1024

    /// zlib's compression level for answers: 1, nginx's default (`gzip_comp_level`): on a zoom-5 clusters answer it
    /// costs a third of level 6's time for 14 % more bytes, and every edit empties the cache, so answers are
    /// compressed again and again on a live map.
    static let gzipLevel = 1

    /// `entry` as sent with `coding`: gzip-compressed when the client accepts gzip and the body is above
    /// `compressionThresholdBytes` (plain if zlib cannot start a stream); a body that could be compressed says
    /// `Vary: Accept-Encoding`, unless the server never compresses.
    /// - Complexity: O(n) in the body's bytes.
    static func encoded(_ entry: AnswerCache.Entry, _ coding: ContentCoding) -> AnswerCache.Entry {
        guard coding != .off, entry.body.readableBytes > compressionThresholdBytes else { return entry }
        var headers = entry.headers
        headers[.vary] = "Accept-Encoding"
        if coding == .gzip, let body = entry.body.withUnsafeReadableBytes({ GzipWriter.compressed($0, level: gzipLevel) }) {
            headers[.contentEncoding] = "gzip"
            return AnswerCache.Entry(body: body, contentType: entry.contentType, headers: headers, isGzip: true)
        }
        return AnswerCache.Entry(body: entry.body, contentType: entry.contentType, headers: headers, isGzip: false)
    }

    /// The `ETag` of a gzip answer, whose plain answer has `entityTag`: the two are different bytes, so that a cache
    /// in between never answers one client's revalidation with the other's body.
    static func gzipTag(_ entityTag: String) -> String {
        entityTag.hasSuffix("\"") ? String(entityTag.dropLast()) + "-gz\"" : entityTag + "-gz"
    }

    /// The tag of the answer the client already holds, when it is current (`If-None-Match` names it, or `*`): the
    /// plain answer's `entityTag`, or with gzip accepted its gzip answer's too (preferred when both are named). A
    /// client that accepts gzip may hold the plain answer of a small one, or one made before it asked for gzip; it
    /// accepts plain bytes too, so that answer is as good.
    /// - Complexity: O(n) in the length of the header.
    static func heldTag(_ request: Request, entityTag: String, coding: ContentCoding) -> String? {
        guard let header = request.headers[.ifNoneMatch] else { return nil }
        let tags = header.split(separator: ",").map(\.trimmingSpaces)
        if coding == .gzip {
            let gzip = gzipTag(entityTag)
            if tags.contains(where: { $0 == gzip }) { return gzip }
        }
        return tags.contains { $0 == entityTag || $0 == "*" } ? entityTag : nil
    }

    /// A 304 for a client that holds the answer tagged `entityTag`.
    static func notModified(entityTag: String, coding: ContentCoding = .off) -> Response {
        var headers: HTTPFields = [.eTag: entityTag]
        if coding != .off { headers[.vary] = "Accept-Encoding" }
        return Response(status: .notModified, headers: headers)
    }

    /// A 200 with a written answer, tagged with the state's `entityTag` (its gzip tag for a gzip body).
    static func ok(_ entry: AnswerCache.Entry, entityTag: String) -> Response {
        ok(entry.body, contentType: entry.contentType, entityTag: entry.isGzip ? gzipTag(entityTag) : entityTag, extra: entry.headers)
    }

    /// A 200 with `bytes`, their media type and the state's tag; `extra` headers added.
    static func ok(_ bytes: [UInt8], contentType: String, entityTag: String?, extra: HTTPFields = [:]) -> Response {
        ok(ByteBuffer(bytes: bytes), contentType: contentType, entityTag: entityTag, extra: extra)
    }

    private static func ok(_ buffer: ByteBuffer, contentType: String, entityTag: String?, extra: HTTPFields) -> Response {
        var headers: HTTPFields = [.contentType: contentType, .cacheControl: "no-cache"]
        if let entityTag { headers[.eTag] = entityTag }
        headers.append(contentsOf: extra)
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: buffer))
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
