import CairnCore
import CairnIO

/// Prints query results in one of the result formats, streaming to standard output.
struct ResultPrinter {
    let format: ResultFormat

    func print(_ hits: [QueryHit], of index: FeatureIndex, to out: OutputSink) {
        defer { out.flush() }
        func extra(_ hit: QueryHit) -> [(String, Double)] { hit.distanceMeters.map { [("distance_m", $0)] } ?? [] }
        switch format {
        case .ids:
            for hit in hits { out.write(index.features[hit.item].id + "\n") }
        case .geojson:
            out.write("{\"type\":\"FeatureCollection\",\"features\":[")
            for (n, hit) in hits.enumerated() {
                out.write((n == 0 ? "\n" : ",\n") + FeatureEncoding.geoJSON(index.features[hit.item], extra: extra(hit)))
            }
            out.write("\n]}\n")
        case .json:
            out.write("[")
            for (n, hit) in hits.enumerated() {
                out.write((n == 0 ? "\n" : ",\n") + FeatureEncoding.json(index.features[hit.item], extra: extra(hit)))
            }
            out.write("\n]\n")
        case .csv:
            let features = hits.map { index.features[$0.item] }
            let measured = hits.contains { $0.distanceMeters != nil }
            let columns = FeatureEncoding.csvColumns(for: features, extra: measured ? ["distance_m"] : [])
            out.write(columns.joined(separator: ",") + "\n")
            for hit in hits {
                let values = hit.distanceMeters.map { ["distance_m": $0] } ?? [:]
                out.write(FeatureEncoding.csvRow(index.features[hit.item], columns: columns, extra: values) + "\n")
            }
        }
    }
}
