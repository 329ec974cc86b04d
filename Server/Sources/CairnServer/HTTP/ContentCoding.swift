import Hummingbird

/// How one request's answer is sent: negotiated from its `Accept-Encoding` (RFC 9110 §12.5.3) and the server's
/// `--gzip/--no-gzip`.
enum ContentCoding: Sendable, Equatable {
    /// The server never compresses (`--no-gzip`): answers do not vary with `Accept-Encoding`.
    case off
    /// Plain bytes: the client did not ask for gzip (no `Accept-Encoding`, `identity`, or gzip at `q=0`).
    case identity
    /// gzip for the answers above `Answer.compressionThresholdBytes`, plain for the smaller ones.
    case gzip

    /// The coding for `request` on a server that compresses when `gzipEnabled`.
    /// - Complexity: O(n) in the length of the `Accept-Encoding` header.
    init(_ request: Request, gzipEnabled: Bool) {
        guard gzipEnabled else {
            self = .off
            return
        }
        self = Self.acceptsGzip(request.headers[values: .acceptEncoding].joined(separator: ",")) ? .gzip : .identity
    }

    /// Whether an `Accept-Encoding` value lets the answer be gzip: `gzip` (or `x-gzip`, or `*` when gzip is not
    /// named) with a q-value above 0, and not below `identity`'s when the client names `identity` itself (a client
    /// that prefers plain bytes gets them). An empty value means identity only; an element whose q-value is not a
    /// number is ignored.
    /// - Complexity: O(n) in the length of `header`.
    static func acceptsGzip(_ header: String) -> Bool {
        var gzip: Double?, identity: Double?, any: Double?
        for element in header.split(separator: ",") {
            let parts = element.split(separator: ";")
            guard let name = parts.first?.trimmingSpaces.lowercased(), !name.isEmpty else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingSpaces }
                guard pair.count == 2, pair[0].lowercased() == "q" else { continue }
                // RFC 9110's qvalue is 0 to 1 with at most three decimals; anything else makes the element unusable.
                guard let value = Double(pair[1]), (0...1).contains(value) else {
                    quality = .nan
                    break
                }
                quality = value
            }
            guard !quality.isNaN else { continue }
            switch name {
            case "gzip", "x-gzip": gzip = max(gzip ?? 0, quality)
            case "identity": identity = quality
            case "*": any = quality
            default: break
            }
        }
        guard let quality = gzip ?? any, quality > 0 else { return false }
        return quality >= (identity ?? 0)
    }

    /// What the answer cache's key adds for this coding: a gzip answer is kept apart from the plain one.
    var cacheKeySuffix: String { self == .gzip ? "\ngzip" : "" }
}
