import Logging
import ServiceLifecycle

/// Follows the store while the server runs: every `intervalSeconds` it reads the store's content id and, when
/// another process wrote (a `cairn import`, a `cairn delete`), reloads the served state. A failed check is kept for
/// `/healthz` and retried at the next tick; the server goes on answering from what it has.
struct StoreFollower: Service {
    let served: ServedStore
    let intervalSeconds: Double
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                // Cancelled at shutdown: the sleep throws, and the loop ends (a service that throws fails the server).
                guard (try? await Task.sleep(for: .milliseconds(Int(intervalSeconds * 1000)))) != nil else { return }
                do {
                    if try served.reloadIfChanged() {
                        let state = served.state
                        logger.info("reloaded the store", metadata: ["generation": "\(state.generation)", "features": "\(state.index.count)"])
                    }
                    served.followFailure.withLock { $0 = nil }
                } catch {
                    logger.error("cannot follow the store: \(error)")
                    served.followFailure.withLock { $0 = "\(error)" }
                }
            }
        }
    }
}
