import CairnCore
import CairnIO

/// Runs one feature reader (`openFeatureReader`, the path `cairn import` takes) over a fuzz input and checks
/// what it yields, not only that it does not crash:
/// - every feature's coordinate is finite and in range (latitude −90…90, longitude −180…180), its id is not
///   empty, its radius (if any) finite and positive, its numeric attributes finite;
/// - every feature and every rejection names a line from 1 to the input's line count, and the file as given;
///   every rejection says why;
/// - records come in file order (lines never go back); in CSV each record starts on a later line than the one
///   before (JSON lines may hold several RS-framed records on a line, as GeoJSON text sequences do).
/// A refusal of the file as a whole (`InputError`, e.g. a CSV header without coordinates) is an allowed answer.
public enum ReaderHarness {
    /// The longest record the readers accept here, small so that the over-limit path is reached by small
    /// inputs (libFuzzer's inputs are a few KiB) while ordinary records in the seeds stay under it.
    public static let maxRecordBytes = 2048

    /// Reads `data` as `format` and checks the invariants; aborts (a libFuzzer crash) when one breaks.
    /// - Complexity: O(n) in the input's bytes, plus the reader's work.
    public static func run(_ data: UnsafePointer<UInt8>?, _ size: Int, format: InputFormat) {
        let bytes = UnsafeBufferPointer(start: data, count: size)
        let path = FuzzFile.write(bytes, name: "input." + fileExtension(format))
        let lines = InputLines(bytes)
        let options = ImportOptions(maxRecordBytes: maxRecordBytes)
        let reader: any FeatureReader
        do {
            reader = try openFeatureReader(path: path, format: format, options: options)
        } catch {
            FuzzCheck.require(error.file == path, "the refusal names \(error.file), not \(path)")
            return
        }
        let strictlyLater = format == .csv
        let lastLine = format == .csv ? lines.lastCSVLine : lines.lastLine
        var previousLine = 0
        func checkLine(_ line: Int, _ what: @autoclosure () -> String) {
            if !lines.isGzip {
                FuzzCheck.require(line >= 1 && line <= lastLine, "\(what()) names line \(line), outside 1...\(lastLine)")
            }
            FuzzCheck.require(strictlyLater ? line > previousLine : line >= previousLine,
                              "\(what()) names line \(line) after a record at line \(previousLine)")
            previousLine = line
        }
        do {
            while let record = try reader.next() {
                switch record {
                case .feature(let feature, let line):
                    checkLine(line, "feature \(feature.id)")
                    check(feature)
                case .rejected(let rejection):
                    checkLine(rejection.line, "rejection '\(rejection)'")
                    FuzzCheck.require(rejection.file == path, "rejection '\(rejection)' names another file")
                    FuzzCheck.require(!rejection.reason.isEmpty, "rejection at line \(rejection.line) gives no reason")
                }
            }
        } catch {
            // The file cannot be read further (for example a corrupt gzip stream): allowed, if it says where.
            FuzzCheck.require(error.file == path, "the error names \(error.file), not \(path)")
            if let line = error.line, !lines.isGzip {
                FuzzCheck.require(line >= 1 && line <= lastLine, "the error '\(error)' names a line outside 1...\(lastLine)")
            }
        }
    }

    /// The invariants of one accepted feature.
    static func check(_ feature: Feature) {
        let latitude = feature.location.latitude, longitude = feature.location.longitude
        FuzzCheck.require(latitude.isFinite && (-90.0...90.0).contains(latitude), "feature \(feature.id) has latitude \(latitude)")
        FuzzCheck.require(longitude.isFinite && (-180.0...180.0).contains(longitude), "feature \(feature.id) has longitude \(longitude)")
        FuzzCheck.require(!feature.id.isEmpty, "a feature has an empty id")
        if let radius = feature.radiusMeters {
            FuzzCheck.require(radius.isFinite && radius > 0, "feature \(feature.id) has radius \(radius)")
        }
        for (name, value) in feature.attributes {
            if case .number(let number) = value {
                FuzzCheck.require(number.isFinite, "feature \(feature.id) has attribute \(name) = \(number)")
            }
        }
    }

    /// The file extension that names `format` (the reader is told the format too; the name keeps messages plain).
    static func fileExtension(_ format: InputFormat) -> String {
        switch format {
        case .csv: "csv"
        case .geojson: "geojson"
        case .geojsonSeq: "geojsonseq"
        case .jsonLines: "jsonl"
        }
    }
}
