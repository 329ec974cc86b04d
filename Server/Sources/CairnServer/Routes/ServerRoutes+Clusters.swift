import CairnCore
import CairnIO
import Hummingbird

extension ServerRoutes {
    /// `GET /clusters?bbox=&zoom=[&kind=&where=]`: the clusters and lone points of a zoom in a box (the whole world
    /// without `bbox`), as `cairn cluster` writes them; a fractional zoom uses the level below. The clustering
    /// options are the server's (`/clusters` takes none); a filter's hierarchy is built off the request threads,
    /// within the request's time limit (`ClusterBuilds`).
    func clusters(_ request: Request) async throws -> Response {
        let parameters = QueryParameters(request)
        let box = parameters.text("bbox", "sw") == nil ? BoundingBox.world : try parameters.box()
        let zoom = try parameters.number("zoom", "z", what: "a map zoom, 0 to \(ClusterOptions.zoomLimit)")
        guard (0...Double(ClusterOptions.zoomLimit)).contains(zoom) else {
            throw RequestError(.badRequest, "zoom must be 0 to \(ClusterOptions.zoomLimit), got \(zoom)", parameter: "zoom")
        }
        let state = served.state
        if let notModified = notModified(request, state) { return notModified }
        let clusters = try await hierarchy(state, parameters)
        return try read(request, from: state) { state in
            // Assembled in NIO's buffer itself: the answer's one copy, from the kept pieces into what is sent.
            AnswerCache.Entry(body: writer(clusters, state).encodeClusters(in: box, zoom: Int(zoom.rounded(.down)), into: ByteBuffer.filled),
                              contentType: "application/geo+json")
        }
    }

    /// `GET /clusters/{id}/children`: the clusters and points one zoom above the cluster.
    func clusterChildren(_ request: Request, id: String) async throws -> Response {
        try await openCluster(request, id: id) { clusters, cluster, state, _ in
            writer(clusters, state).encodeCollection(try clusters.index.children(of: cluster))
        }
    }

    /// `GET /clusters/{id}/leaves?limit=&offset=`: the cluster's points (100 at most by default, as `cairn cluster`).
    func clusterLeaves(_ request: Request, id: String) async throws -> Response {
        try await openCluster(request, id: id) { clusters, cluster, state, parameters in
            let limit = try parameters.integer("limit", in: 0...configuration.maxResults, default: 100)
            let offset = try parameters.integer("offset", in: 0...Int.max, default: 0)
            let leaves = try clusters.index.leaves(of: cluster, limit: limit, offset: offset)
            return writer(clusters, state).encodeCollection(leaves.map {
                ClusterNode(content: .point($0), coordinate: clusters.index.coordinate(ofPoint: $0), pointCount: 1)
            })
        }
    }

    /// `GET /clusters/{id}/expansion_zoom`: the zoom at which the cluster splits.
    func clusterExpansionZoom(_ request: Request, id: String) async throws -> Response {
        try await openCluster(request, id: id) { clusters, cluster, state, _ in
            ClusterWriter.encodeExpansion(try clusters.index.expansionZoom(of: cluster), of: cluster, clusterIDOffset: state.clusterIDOffset)
        }
    }

    /// Runs `body` on the cluster a served id names in the current hierarchy (for the request's filter); an id of
    /// an earlier state, or of no cluster, is a 404 that says so, never another cluster's answer.
    private func openCluster(_ request: Request, id text: String,
                             _ body: (ServedClusters.Clusters, ClusterID, ServedState, QueryParameters) throws -> [UInt8]) async throws -> Response {
        let parameters = QueryParameters(request)
        guard let served = UInt64(text) else {
            throw RequestError(.badRequest, "'\(text)' is not a cluster id (a whole number from /clusters)", parameter: "id")
        }
        let state = self.served.state
        if let notModified = notModified(request, state) { return notModified }
        guard let cluster = state.clusterID(served: served) else {
            throw RequestError(.notFound, "cluster \(served) is not in the current clusters: the features changed since it was "
                               + "given (or it was never a cluster id); ask /clusters again", parameter: "id")
        }
        let clusters = try await hierarchy(state, parameters)
        return try read(request, from: state) { state in
            do {
                return AnswerCache.Entry(body: try body(clusters, cluster, state, parameters), contentType: "application/geo+json")
            } catch let error as ClusterError {
                throw RequestError(.notFound, "cluster \(served): \(error); use the kind and where of the query that gave the id", parameter: "id")
            }
        }
    }

    /// The cluster hierarchy of `state` for the request's `kind`/`where` (built off the request threads when new),
    /// counting a time-limit 503 or a client gone in the metrics.
    func hierarchy(_ state: ServedState, _ parameters: QueryParameters) async throws -> ServedClusters.Clusters {
        do {
            return try await limits.clusterBuilds.hierarchy(state.clusters, filter: try parameters.filter(), key: parameters.filterKey,
                                                            work: limits.work)
        } catch let error as RequestError where error.status == .serviceUnavailable {
            limits.overTime.increment()
            throw error
        } catch is ClientGone {
            limits.clientGone.increment()
            throw ClientGone()
        }
    }

    private func writer(_ clusters: ServedClusters.Clusters, _ state: ServedState) -> ClusterWriter {
        ClusterWriter(index: clusters.index, features: clusters.features, clusterIDOffset: state.clusterIDOffset,
                      cache: clusters.fragments)
    }
}
