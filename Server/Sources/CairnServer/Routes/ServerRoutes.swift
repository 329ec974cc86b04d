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
    /// answer kept for the same request (URL and `Accept`) when this state wrote it before, else `make`'s (kept).
    func read(_ request: Request, _ make: (ServedState) throws -> AnswerCache.Entry) throws -> Response {
        let state = served.state
        if Answer.isNotModified(request, entityTag: state.entityTag) { return Answer.notModified(entityTag: state.entityTag) }
        let key = request.uri.description + "\n" + (request.headers[.accept] ?? "")
        let entry: AnswerCache.Entry
        if let kept = state.answers.answer(for: key) {
            entry = kept
        } else {
            entry = try make(state)
            state.answers.keep(entry, for: key)
        }
        return Answer.ok(entry.body, contentType: entry.contentType, entityTag: state.entityTag, extra: entry.headers)
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
