import CairnCore
@testable import CairnIO
import CairnTestSupport
import Foundation
import Testing

/// The folder of committed fixture files.
func fixturesDirectory() throws -> URL {
    try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil), "the Fixtures resource folder is missing")
}

/// Reads every record of a CSV file.
func readAllRecords(path: String, options: ImportOptions = ImportOptions(), chunkSize: Int = 1 << 18) throws(InputError) -> [ImportRecord] {
    let reader = try CSVFeatureReader(source: ByteSource(path: path), options: options, chunkSize: chunkSize)
    var records: [ImportRecord] = []
    while let record = try reader.next() { records.append(record) }
    return records
}

/// Reads every record of CSV text written to a scratch file called `name`.
func readAllRecords(csv text: String, name: String = "t.csv", options: ImportOptions = ImportOptions(), chunkSize: Int = 1 << 18) throws -> [ImportRecord] {
    let scratch = try TemporaryFolder()
    return try readAllRecords(path: scratch.write(name, text), options: options, chunkSize: chunkSize)
}

/// Reads CSV text and expects a file-level error.
func inputError(csv text: String, name: String = "t.csv", options: ImportOptions = ImportOptions()) throws -> InputError? {
    let scratch = try TemporaryFolder()
    let path = try scratch.write(name, text)
    do {
        _ = try readAllRecords(path: path, options: options)
        return nil
    } catch {
        return error
    }
}

extension ImportRecord {
    /// The feature, or nil for a rejection.
    var feature: Feature? {
        if case .feature(let feature, _) = self { return feature }
        return nil
    }

    /// The rejection, or nil for a feature.
    var rejection: RowRejection? {
        if case .rejected(let rejection) = self { return rejection }
        return nil
    }

    /// The record's first line.
    var line: Int {
        switch self {
        case .feature(_, let line): line
        case .rejected(let rejection): rejection.line
        }
    }

    /// A complete, comparable summary of the record.
    var summary: String {
        switch self {
        case .feature(let f, let line):
            let attributes = f.attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ";")
            let window = f.timeWindow.map { "\($0.start)..\($0.end)" } ?? "-"
            return "\(line) \(f.id) \(f.kind.rawValue) \(f.location.latitude) \(f.location.longitude) \(f.radiusMeters.map { "\($0)" } ?? "-") \(window) [\(attributes)]"
        case .rejected(let r):
            let base = r.file.split(separator: "/").last.map(String.init) ?? r.file
            return "REJECTED \(base):\(r.line): \(r.reason) [\(r.field ?? "-")]"
        }
    }
}
