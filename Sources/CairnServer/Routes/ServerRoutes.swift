import CairnCore
import CairnIO
import HTTPTypes
import Hummingbird

/// The handlers of every endpoint, over one served store. Each reads the current state once, so that one answer
/// comes from one state, whatever edits land meanwhile.
struct ServerRoutes: Sendable {
    let served: ServedStore
    let configuration: ServerConfiguration

    /// The current state, or a 304 when the client already holds this state's answer.
    func state(for request: Request) -> (ServedState, notModified: Response?) {
        let state = served.state
        return (state, Answer.isNotModified(request, entityTag: state.entityTag) ? Answer.notModified(entityTag: state.entityTag) : nil)
    }

    /// Encodes `hits` (already in the answer's order) in the client's format, cut at `limit`; the header
    /// `Cairn-Result-Count` gives the count before the cut.
    func results(_ hits: [DynamicHit], limit: Int, format: QueryResultFormat, state: ServedState, extra: HTTPFields = [:]) -> Response {
        let rows = hits.prefix(limit).map { QueryResultRow(feature: $0.feature, distanceMeters: $0.distanceMeters) }
        let sink = MemorySink()
        QueryResultWriter(format: format).write(rows, to: sink)
        var headers = extra
        headers[HTTPField.Name("Cairn-Result-Count")!] = String(hits.count)
        return Answer.ok(sink.bytes, contentType: Answer.contentType(format), entityTag: state.entityTag, extra: headers)
    }
}
