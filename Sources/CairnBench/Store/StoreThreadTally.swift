/// What one thread measured on one operation of `cairn bench --db`.
struct StoreThreadTally: Sendable {
    var latency = LatencyHistogram()
    var queries = 0
    var results = 0
}
