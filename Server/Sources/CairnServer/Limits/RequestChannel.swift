import Hummingbird
import NIOCore

/// The connection of the request being answered, for the code that makes its answer: a streamed answer closes a
/// connection whose client stopped reading, and long work stops when its client goes. A task local, set by
/// `RequestChannelMiddleware`, so that the handlers keep their one `Request` parameter.
enum RequestChannel {
    @TaskLocal static var current: (any Channel)?
}

/// Sets `RequestChannel.current` for the rest of the chain.
struct RequestChannelMiddleware: RouterMiddleware {
    func handle(_ request: Request, context: CairnRequestContext,
                next: (Request, CairnRequestContext) async throws -> Response) async throws -> Response {
        try await RequestChannel.$current.withValue(context.channel) { try await next(request, context) }
    }
}
