import CairnCore

/// A streaming reader of features from one input file: records come one at a time, in file order.
public protocol FeatureReader: AnyObject {
    /// The next record, or nil at the end of the file.
    /// - Throws: `InputError` when the file as a whole cannot be read further (I/O error, corrupt gzip).
    func next() throws(InputError) -> ImportRecord?
    /// Bytes of the file on disk consumed so far (for progress).
    var bytesConsumed: Int64 { get }
    /// The size of the file on disk in bytes.
    var fileSizeBytes: Int64 { get }
    /// What the reader did with coordinate systems, for the import's summary (`FILE: coordinates from EPSG:2263
    /// (--s-srs)`); empty when the positions were WGS84 degrees as written.
    var coordinateSystemNotes: [String] { get }
}

extension FeatureReader {
    /// No coordinate system notes: the reader reads WGS84 degrees only.
    /// - Complexity: O(1).
    public var coordinateSystemNotes: [String] { [] }
}
