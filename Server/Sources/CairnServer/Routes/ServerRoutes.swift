import CairnCore
import CairnIO
import HTTPTypes
import Hummingbird

/// The handlers of every endpoint, over one served store. Each reads the current state once, so that one answer
/// comes from one state, whatever edits land meanwhile.
struct ServerRoutes: Sendable {
    let served: ServedStore
    let configuration: ServerConfiguration
    let limits: ServerLimits
    /// Leaflet and the outline for the map page, read at start.
    let mapAssets: MapAssets

    /// The answer to a read from `state` (the current state by default): a 304 when the client already holds this
    /// state's answer, the answer kept for the same request (URL, `Accept` and gzip or not) when this state wrote it
    /// before, else `make`'s (compressed if the client accepts gzip, then kept). An answer over
    /// `StreamedAnswer.thresholdBytes` is streamed; one that the cache does not keep counts against the budget of unsent
    /// answers while it is sent, and is refused (503) over it.
    func read(_ request: Request, from given: ServedState? = nil, _ make: (ServedState) throws -> AnswerCache.Entry) throws -> Response {
        let state = given ?? served.state
        let coding = ContentCoding(request, gzipEnabled: configuration.gzip)
        if let notModified = notModified(request, state, coding: coding) { return notModified }
        let key = request.uri.description + "\n" + (request.headers[.accept] ?? "") + coding.cacheKeySuffix
        let entry: AnswerCache.Entry
        var isShared = true
        if let kept = state.answers.answer(for: key) {
            entry = kept
        } else {
            entry = Answer.encoded(try make(state), coding)
            state.answers.keep(entry, for: key)
            isShared = false
        }
        guard entry.body.readableBytes > StreamedAnswer.thresholdBytes else { return Answer.ok(entry, entityTag: state.entityTag) }
        // A large answer made now is shared when the cache kept it (every client of it is sent the same bytes).
        let alone = isShared || state.answers.answer(for: key) != nil ? 0 : entry.body.readableBytes
        return try streamed(entry, alone: alone, entityTag: state.entityTag)
    }

    /// A 304 when the client already holds `state`'s answer to `request` (plain or gzip), else nil; `coding` is
    /// the request's, when the caller has read it already.
    func notModified(_ request: Request, _ state: ServedState, coding: ContentCoding? = nil) -> Response? {
        let coding = coding ?? ContentCoding(request, gzipEnabled: configuration.gzip)
        guard let held = Answer.heldTag(request, entityTag: state.entityTag, coding: coding) else { return nil }
        return Answer.notModified(entityTag: held, coding: coding)
    }

    /// A 200 streaming `entry`'s body, `alone` of its bytes held for this client only (taken from the budget of
    /// unsent answers until the body is sent or dropped).
    private func streamed(_ entry: AnswerCache.Entry, alone: Int, entityTag: String) throws -> Response {
        let budget = limits.unsentAnswers
        if alone > 0, !budget.reserve(alone) {
            limits.refusedAnswers.increment()
            throw RequestError(.serviceUnavailable, "the server holds \(budget.heldBytes >> 20) MiB of answers its clients have not read yet "
                               + "(the limit, cairn serve --max-unsent-answers-mib, is \(budget.limitBytes >> 20)); retry later")
        }
        // Given back when the body is released: written, failed, or never written (a client gone before its head).
        let reservation = Reservation { if alone > 0 { budget.release(alone) } }
        var response = Answer.ok(entry, entityTag: entityTag)
        response.body = StreamedAnswer.body(entry.body, channel: RequestChannel.current, stallSeconds: limits.stallSeconds,
                                            holding: reservation)
        return response
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
