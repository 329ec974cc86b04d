import Prometheus

/// The bytes of answers made for one client alone and not yet taken by it, bounded for the whole server: a client
/// that asks and does not read holds its answer until the connection is dropped, and without a bound, enough such
/// clients hold any amount of memory. An answer that would go over the budget is refused with a 503 instead of
/// being held. Answers kept in the answer cache are not counted: every client of one is sent the same bytes, which
/// the cache holds anyway.
final class UnsentAnswerBudget: Sendable {
    /// The most bytes held at once.
    let limitBytes: Int
    private let held = Locked<Int>(0)
    private let gauge: Gauge

    /// A budget of `limitBytes`, reported as `cairn_unsent_answer_bytes` in `registry`.
    init(limitBytes: Int, registry: PrometheusCollectorRegistry) {
        self.limitBytes = limitBytes
        gauge = registry.makeGauge(descriptor: MetricNameDescriptor(metricName: "cairn_unsent_answer_bytes", unitName: "",
                                   helpText: "Bytes of answers made for one client and not yet sent to it (bounded by --max-unsent-answers-mib)."))
    }

    /// Takes `bytes` from the budget; false (nothing taken) when they do not fit. An answer alone is always let
    /// through when nothing else is held, so that a budget below the largest answer refuses nothing forever.
    /// - Complexity: O(1).
    func reserve(_ bytes: Int) -> Bool {
        let total: Int? = held.withLock { held in
            guard held == 0 || held + bytes <= limitBytes else { return nil }
            held += bytes
            return held
        }
        guard let total else { return false }
        gauge.set(Int64(total))
        return true
    }

    /// Gives back `bytes` taken by `reserve`.
    /// - Complexity: O(1).
    func release(_ bytes: Int) {
        let total = held.withLock { held in
            held -= bytes
            return held
        }
        gauge.set(Int64(total))
    }

    /// The bytes held now.
    var heldBytes: Int { held.withLock { $0 } }
}
