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

    /// The answer to a read from `state` (the current state by default): a 304 when the client already holds this
    /// state's answer, the answer kept for the same request (URL and `Accept`) when this state wrote it before,
    /// else `make`'s (kept). An answer over `StreamedAnswer.chunkBytes` is streamed; one that the cache does not
    /// keep counts against the budget of unsent answers while it is sent, and is refused (503) over it.
    func read(_ request: Request, from given: ServedState? = nil, _ make: (ServedState) throws -> AnswerCache.Entry) throws -> Response {
        let state = given ?? served.state
        if Answer.isNotModified(request, entityTag: state.entityTag) { return Answer.notModified(entityTag: state.entityTag) }
        let key = request.uri.description + "\n" + (request.headers[.accept] ?? "")
        let entry: AnswerCache.Entry
        var isShared = true
        if let kept = state.answers.answer(for: key) {
            entry = kept
        } else {
            entry = try make(state)
            state.answers.keep(entry, for: key)
            isShared = false
        }
        guard entry.body.count > StreamedAnswer.chunkBytes else {
            return Answer.ok(entry.body, contentType: entry.contentType, entityTag: state.entityTag, extra: entry.headers)
        }
        // A large answer made now is shared when the cache kept it (every client of it is sent the same bytes).
        return try streamed(entry, alone: isShared || state.answers.answer(for: key) != nil ? 0 : entry.body.count, entityTag: state.entityTag)
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
        var response = Answer.ok([], contentType: entry.contentType, entityTag: entityTag, extra: entry.headers)
        response.body = StreamedAnswer.body(entry.body, channel: RequestChannel.current, stallSeconds: limits.stallSeconds,
                                            holding: reservation)
        return response
    }

    /// `hits` (already in the answer's order) in the client's format, cut at `limit`; the header
    /// `Cairn-Result-Count` gives the count before the cut.
    func results(_ hits: [DynamicHit], limit: Int, format: QueryResultFormat,
                 headers: HTTPFields = [:]) -> AnswerCache.Entry {
        let rows = hits.prefix(limit).map { QueryResultRow(feature: $0.feature, distanceMeters: $0.distanceMeters) }
        return AnswerCache.Entry(body: QueryResultWriter(format: format).encode(rows), contentType: Answer.contentType(format),
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
