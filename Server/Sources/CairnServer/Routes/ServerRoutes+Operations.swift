import CairnCore
import CairnIO
import Hummingbird
import Prometheus

extension ServerRoutes {
    /// `GET /healthz`: 200 with the served generation, the clusters' generation (the same, or an earlier one for
    /// the moment the clusters take to follow an edit) and the feature count while the store can be followed; 503
    /// with the reason when the last check of the store failed (the server still answers from what it has).
    func health(_ request: Request) -> Response {
        let state = served.state
        let failure = served.followFailure.withLock { $0 } ?? served.postgresFollowFailure
        var body = "{\"status\":\(failure == nil ? "\"ok\"" : "\"degraded\""),\"generation\":\(state.generation),\"clusters_generation\":\(state.clusters.generation),\"features\":\(state.index.count)"
        if let failure { body += ",\"error\":\(TextEscaping.jsonString(failure))" }
        body += "}\n"
        var response = Answer.ok(Array(body.utf8), contentType: "application/json", entityTag: nil)
        if failure != nil { response.status = .serviceUnavailable }
        return response
    }

    /// `GET /metrics`: Prometheus text: requests and latency per route (Hummingbird's metrics middleware), the
    /// features served, the store generation and the clusters'.
    func metrics(_ request: Request, registry: PrometheusCollectorRegistry) -> Response {
        let state = served.state
        registry.makeGauge(descriptor: MetricNameDescriptor(metricName: "cairn_features", unitName: "", helpText: "Features served.")).set(Int64(state.index.count))
        registry.makeGauge(descriptor: MetricNameDescriptor(metricName: "cairn_store_generation", unitName: "", helpText: "The store generation served.")).set(state.generation)
        registry.makeGauge(descriptor: MetricNameDescriptor(metricName: "cairn_clusters_generation", unitName: "",
                                                            helpText: "The store generation the clusters and tiles are of (they follow the index's edits a moment later)."))
            .set(state.clusters.generation)
        registry.makeGauge(descriptor: MetricNameDescriptor(metricName: "cairn_pending_edits", unitName: "", helpText: "Edits held in the index's delta since its last compaction."))
            .set(Int64(state.index.pendingEdits))
        if let status = served.postgresFeed.withLock({ $0 })?.status {
            registry.makeGauge(descriptor: MetricNameDescriptor(metricName: "cairn_store_connected", unitName: "",
                                                                helpText: "1 while the replica follows its PostgreSQL store's changes, 0 while it cannot.")).set(Int64(status.connected ? 1 : 0))
            registry.makeGauge(descriptor: MetricNameDescriptor(metricName: "cairn_store_reconnects", unitName: "",
                                                                helpText: "Connections to the store's change feed after the first.")).set(Int64(status.reconnects))
            registry.makeGauge(descriptor: MetricNameDescriptor(metricName: "cairn_store_reloads", unitName: "",
                                                                helpText: "Full reloads of the store's features (a TRUNCATE, a store made anew, or a change log pruned past this replica).")).set(Int64(status.reloads))
        }
        var bytes: [UInt8] = []
        registry.emit(into: &bytes)
        return Answer.ok(bytes, contentType: "text/plain; version=0.0.4; charset=utf-8", entityTag: nil)
    }
}
