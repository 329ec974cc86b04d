import Prometheus

/// What bounds one request's cost to the others: its time (`RequestWork`), the unsent answers held for slow clients
/// (`UnsentAnswerBudget`), the one thread that builds filtered cluster hierarchies (`ClusterBuilds`), and the
/// counters that show them at work in `/metrics`.
struct ServerLimits: Sendable {
    /// The longest a request's work may take, in seconds.
    let requestTimeLimitSeconds: Double
    /// How long a client may take nothing of a streamed answer, twice over, before its connection is closed.
    let stallSeconds: Int
    let unsentAnswers: UnsentAnswerBudget
    let clusterBuilds = ClusterBuilds()
    /// Requests answered 503 because their work took longer than the limit.
    let overTime: Counter
    /// Requests whose work stopped because their client closed the connection.
    let clientGone: Counter
    /// Answers refused with 503 because the unsent answers already held the budget.
    let refusedAnswers: Counter
    /// Check-in rows judged over HTTP (the work a request cost, whether or not its client took the answer).
    let checkInRowsJudged: Counter

    init(configuration: ServerConfiguration, registry: PrometheusCollectorRegistry) {
        requestTimeLimitSeconds = configuration.requestTimeLimitSeconds
        stallSeconds = configuration.idleTimeoutSeconds
        unsentAnswers = UnsentAnswerBudget(limitBytes: configuration.maxUnsentAnswerBytes, registry: registry)
        overTime = registry.makeCounter(descriptor: MetricNameDescriptor(metricName: "cairn_requests_over_time_limit_total", unitName: "",
                                        helpText: "Requests answered 503 (or cut) because their work took longer than --request-time-limit-seconds."))
        clientGone = registry.makeCounter(descriptor: MetricNameDescriptor(metricName: "cairn_work_stopped_client_gone_total", unitName: "",
                                        helpText: "Requests whose work stopped because their client closed the connection."))
        refusedAnswers = registry.makeCounter(descriptor: MetricNameDescriptor(metricName: "cairn_answers_refused_unsent_budget_total", unitName: "",
                                        helpText: "Answers refused with 503 because unsent answers held --max-unsent-answers-mib."))
        checkInRowsJudged = registry.makeCounter(descriptor: MetricNameDescriptor(metricName: "cairn_checkin_rows_judged_total", unitName: "",
                                        helpText: "Check-in rows judged over HTTP."))
    }

    /// The work of the request being answered, starting now.
    func work() -> RequestWork {
        RequestWork(limitSeconds: requestTimeLimitSeconds, channel: RequestChannel.current)
    }

    /// Counts why `work` stopped early, if it did; returns the error the request gets for it.
    func stopped(_ work: RequestWork) -> (any Error)? {
        if work.isPastDeadline {
            overTime.increment()
            return work.overTime
        }
        if work.isClientGone {
            clientGone.increment()
            return ClientGone()
        }
        return nil
    }
}
