import CairnCore
import CairnIO
import HTTPTypes
import Hummingbird

/// The handlers of every endpoint, over one served store. Each reads the current state once, so that one answer
/// comes from one state, whatever edits land meanwhile.
struct ServerRoutes: Sendable {
    let served: ServedStore
    let configuration: ServerConfiguration
    /// Leaflet and the outline for the map page, read at start.
    let mapAssets: MapAssets

    /// The answer to a read from the current state: a 304 when the client already holds this state's answer, the
    /// answer kept for the same request (URL, `Accept` and gzip or not) when this state wrote it before, else
    /// `make`'s (compressed if the client accepts gzip, then kept).
    func read(_ request: Request, _ make: (ServedState) throws -> AnswerCache.Entry) throws -> Response {
        let state = served.state
        let coding = ContentCoding(request, gzipEnabled: configuration.gzip)
        if let held = Answer.heldTag(request, entityTag: state.entityTag, coding: coding) { return Answer.notModified(entityTag: held, coding: coding) }
        let key = request.uri.description + "\n" + (request.headers[.accept] ?? "") + coding.cacheKeySuffix
        let entry: AnswerCache.Entry
        if let kept = state.answers.answer(for: key) {
            entry = kept
        } else {
            entry = Answer.encoded(try make(state), coding)
            state.answers.keep(entry, for: key)
        }
        return Answer.ok(entry, entityTag: state.entityTag)
    }

    /// `hits` (already in the answer's order) in the client's format, cut at `limit`; the header
    /// `Cairn-Result-Count` gives the count before the cut.
    func results(_ hits: [DynamicHit], limit: Int, format: QueryResultFormat,
                 headers: HTTPFields = [:]) -> AnswerCache.Entry {
        // The hits as they are: the writer reads each feature where its hit holds it, with no row per hit.
        return AnswerCache.Entry(body: QueryResultWriter(format: format).encode(hits.prefix(limit)), contentType: Answer.contentType(format),
                                 headers: [.cairnResultCount: String(hits.count)] + headers)
    }
}

extension HTTPField.Name {
    /// The number of results before the cut at `limit`.
    static let cairnResultCount = HTTPField.Name("Cairn-Result-Count")!
    /// Where the next page of a cut `/features` answer starts.
    static let cairnNextCursor = HTTPField.Name("Cairn-Next-Cursor")!
    /// RFC 8288's link to the next page.
    static let link = HTTPField.Name("Link")!
}
