import CairnCore
import CairnIO
import CairnStore
import NIOCore
import PostgresNIO

/// Maps a `Feature` to the columns of `cairn_feature` and back: to `COPY` text on the way in, from a selected row
/// on the way out (checked as `Feature.init` checks, so a row written by plain SQL is refused by name).
enum PostgresFeatureRow {
    /// The columns an import copies, in `appendCopyLine`'s order.
    static let copyColumns = ["id", "kind", "location", "radius_m", "start_time", "end_time", "attributes", "shape"]

    /// The select list `decode` reads: the location's exact doubles (`ST_Y`, `ST_X` of the stored point), the
    /// attributes as text (read by `AttributeJSON`, the SQLite store's reader), the shape as WKB. `prefix` qualifies
    /// the columns.
    static func selectList(_ prefix: String = "") -> String {
        "\(prefix)id, \(prefix)kind, ST_Y(\(prefix)location::geometry), ST_X(\(prefix)location::geometry), "
            + "\(prefix)radius_m, \(prefix)start_time, \(prefix)end_time, \(prefix)attributes::text, \(prefix)position, "
            + "ST_AsBinary(\(prefix)shape)"
    }

    /// Rebuilds a feature, and its place in the order, from a row selected with `selectList`.
    /// - Throws: `PostgresStoreError.invalidRow` naming the id and the fault.
    static func decode(_ row: PostgresRow) throws(PostgresStoreError) -> (feature: Feature, position: Int64) {
        let columns: (String, String, Double, Double, Double?, Double?, Double?, String, Int64, ByteBuffer?)
        do {
            columns = try row.decode((String, String, Double, Double, Double?, Double?, Double?, String, Int64, ByteBuffer?).self)
        } catch {
            let id = (try? row.makeRandomAccess()[0].decode(String.self)) ?? "?"
            throw .invalidRow(id: id, reason: "its columns cannot be read: \(PostgresSession.message(error))")
        }
        return try feature(from: columns)
    }

    /// Rebuilds a feature, its place in the order and its distance from a row selected with `selectList` and one
    /// more column, a distance in metres (a PostGIS query's).
    /// - Throws: `PostgresStoreError.invalidRow` naming the id and the fault.
    static func decodeWithDistance(_ row: PostgresRow) throws(PostgresStoreError) -> (feature: Feature, position: Int64, distanceMeters: Double) {
        let columns: (String, String, Double, Double, Double?, Double?, Double?, String, Int64, ByteBuffer?, Double)
        do {
            columns = try row.decode((String, String, Double, Double, Double?, Double?, Double?, String, Int64, ByteBuffer?, Double).self)
        } catch {
            let id = (try? row.makeRandomAccess()[0].decode(String.self)) ?? "?"
            throw .invalidRow(id: id, reason: "its columns cannot be read: \(PostgresSession.message(error))")
        }
        let (id, kind, latitude, longitude, radius, start, end, attributes, position, shape, distance) = columns
        let (feature, _) = try feature(from: (id, kind, latitude, longitude, radius, start, end, attributes, position, shape))
        return (feature, position, distance)
    }

    /// Reads a row of `PostgresFeatureStore.changes`: `selectList` (NULL for an id no longer present), the id
    /// changed (NULL when nothing changed), the store's generation and the change log's horizon.
    /// - Throws: `PostgresStoreError.invalidRow` naming the id and the fault.
    static func decodeChange(_ row: PostgresRow) throws(PostgresStoreError)
        -> (present: (feature: Feature, position: Int64)?, changedID: String?, generation: Int64, prunedThrough: Int64) {
        let columns: (String?, String?, Double?, Double?, Double?, Double?, Double?, String?, Int64?, ByteBuffer?, String?, Int64, Int64)
        do {
            columns = try row.decode((String?, String?, Double?, Double?, Double?, Double?, Double?, String?, Int64?, ByteBuffer?, String?, Int64, Int64).self)
        } catch {
            let id = (try? row.makeRandomAccess()[10].decode(String?.self)) ?? nil
            throw .invalidRow(id: id ?? "?", reason: "its columns cannot be read: \(PostgresSession.message(error))")
        }
        let (id, kind, latitude, longitude, radius, start, end, attributes, position, shape, changedID, generation, prunedThrough) = columns
        guard let id else { return (nil, changedID, generation, prunedThrough) }
        // Columns NOT NULL in the table.
        guard let kind, let latitude, let longitude, let attributes, let position else {
            throw .invalidRow(id: id, reason: "a column that cannot be NULL is NULL")
        }
        let present = try feature(from: (id, kind, latitude, longitude, radius, start, end, attributes, position, shape))
        return (present, changedID, generation, prunedThrough)
    }

    private static func feature(from columns: (String, String, Double, Double, Double?, Double?, Double?, String, Int64, ByteBuffer?)) throws(PostgresStoreError) -> (feature: Feature, position: Int64) {
        let (id, kindText, latitude, longitude, radius, start, end, attributesText, position, wkb) = columns
        func invalid(_ reason: String) -> PostgresStoreError { .invalidRow(id: id, reason: reason) }
        guard let kind = FeatureKind(rawValue: kindText) else { throw invalid("unknown kind '\(kindText)'") }
        do {
            let location = try Coordinate(latitude: latitude, longitude: longitude)
            var window: TimeWindow?
            if let start, let end {
                window = try TimeWindow(start: Timestamp(secondsSince1970: start), end: Timestamp(secondsSince1970: end))
            } else if start != nil || end != nil {
                throw invalid("start_time and end_time must be both set or both NULL")
            }
            let attributes = try AttributeJSON.decode(attributesText)
            let shape = try wkb.map { try Shape(wkb: $0.readableBytesView) }
            let feature = try Feature(id: id, kind: kind, location: location, radiusMeters: radius, timeWindow: window,
                                      attributes: attributes, shape: shape)
            return (feature, position)
        } catch let error as PostgresStoreError {
            throw error
        } catch {
            throw invalid("\(error)")
        }
    }

    /// Appends one `COPY` text line for `feature` (columns `copyColumns`, tab-separated, `\N` for NULL).
    /// Doubles are written shortest-round-trip, so the server parses back the same values.
    /// - Complexity: O(n) in the encoded size.
    static func appendCopyLine(_ feature: Feature, to buffer: inout ByteBuffer) {
        appendEscaped(feature.id, to: &buffer)
        buffer.writeStaticString("\t")
        buffer.writeString(feature.kind.rawValue)
        buffer.writeStaticString("\tSRID=4326;POINT(")
        buffer.writeString(feature.location.longitude.description)
        buffer.writeStaticString(" ")
        buffer.writeString(feature.location.latitude.description)
        buffer.writeStaticString(")\t")
        appendNumber(feature.radiusMeters, to: &buffer)
        buffer.writeStaticString("\t")
        appendNumber(feature.timeWindow?.start.secondsSince1970, to: &buffer)
        buffer.writeStaticString("\t")
        appendNumber(feature.timeWindow?.end.secondsSince1970, to: &buffer)
        buffer.writeStaticString("\t")
        appendEscaped(AttributeJSON.encode(feature.attributes), to: &buffer)
        buffer.writeStaticString("\t")
        if let shape = feature.shape { appendHex(shape.wkb, to: &buffer) } else { buffer.writeStaticString("\\N") }
        buffer.writeStaticString("\n")
    }

    private static func appendNumber(_ value: Double?, to buffer: inout ByteBuffer) {
        if let value { buffer.writeString(value.description) } else { buffer.writeStaticString("\\N") }
    }

    /// COPY text's escapes: backslash, tab, line feed and carriage return (the only bytes that end a field or a row).
    private static func appendEscaped(_ text: String, to buffer: inout ByteBuffer) {
        var text = text
        text.withUTF8 { bytes in
            var start = 0
            for (i, byte) in bytes.enumerated() {
                let escape: StaticString
                switch byte {
                case UInt8(ascii: "\\"): escape = "\\\\"
                case UInt8(ascii: "\t"): escape = "\\t"
                case UInt8(ascii: "\n"): escape = "\\n"
                case UInt8(ascii: "\r"): escape = "\\r"
                default: continue
                }
                buffer.writeBytes(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[start..<i]))
                buffer.writeStaticString(escape)
                start = i + 1
            }
            buffer.writeBytes(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[start...]))
        }
    }

    /// A shape's WKB as geography's text input reads it: hexadecimal digits (what `shapeText` returns, too).
    static func appendHex(_ bytes: [UInt8], to buffer: inout ByteBuffer) {
        let digits: StaticString = "0123456789ABCDEF"
        digits.withUTF8Buffer { digits in
            for byte in bytes {
                buffer.writeInteger(digits[Int(byte >> 4)])
                buffer.writeInteger(digits[Int(byte & 0x0F)])
            }
        }
    }

    /// A feature's shape as geography's text input reads it (hexadecimal WKB), nil for a point.
    static func shapeText(_ feature: Feature) -> String? {
        guard let shape = feature.shape else { return nil }
        var buffer = ByteBuffer()
        appendHex(shape.wkb, to: &buffer)
        return String(buffer: buffer)
    }
}
