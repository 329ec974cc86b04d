import Hummingbird
import NIOCore

/// The context of every request: Hummingbird's, plus the connection, so that long work can see the client go
/// (`RequestWork`) and a stalled answer can be dropped (`StreamedAnswer`).
struct CairnRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The client's connection.
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}
