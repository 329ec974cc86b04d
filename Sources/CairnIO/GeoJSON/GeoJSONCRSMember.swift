import CairnCore

/// GeoJSON's legacy `crs` member (the 2008 specification; RFC 7946 dropped it, but GDAL and ArcGIS still write
/// it): `{"type": "name", "properties": {"name": "urn:ogc:def:crs:EPSG::2263"}}`, or the older
/// `{"type": "EPSG", "properties": {"code": 2263}}`.
enum GeoJSONCRSMember {
    /// The coordinate system a `crs` member names, in a form PROJ reads (`urn:ogc:def:crs:EPSG::2263`,
    /// `EPSG:2263`), or a sentence saying why it names none that Cairn can use.
    /// - Complexity: O(1).
    static func coordinateSystem(of value: JSONValue) -> Result<String, InputErrorReason> {
        let properties = value["properties"]
        switch value["type"] {
        case .string("name")?:
            if case .string(let name)? = properties?["name"], !name.isEmpty { return .success(name) }
            return .failure(InputErrorReason("the crs member of type \"name\" has no properties.name; pass --s-srs"))
        case .string("EPSG")?:
            if case .number(let code)? = properties?["code"], code == code.rounded(), code > 0, code < 1e9 {
                return .success("EPSG:\(Int(code))")
            }
            return .failure(InputErrorReason("the crs member of type \"EPSG\" has no whole properties.code; pass --s-srs"))
        case .string(let other)?:
            return .failure(InputErrorReason("a crs member of type \"\(other)\" is not supported (expected \"name\"); pass --s-srs"))
        case nil where value == .null:
            return .failure(InputErrorReason("the crs member is null; pass --s-srs"))
        default:
            return .failure(InputErrorReason("the crs member has no \"type\" (expected {\"type\": \"name\", \"properties\": {\"name\": ...}}); pass --s-srs"))
        }
    }

    /// The top-level `crs` member of the GeoJSON file at `path`, read ahead without parsing the features (a byte
    /// scan that follows strings and nesting): for a file whose `crs` member comes after its features, found once
    /// the first feature shows that its positions are not degrees. Nil when the file has none at the top level.
    /// - Throws: `InputError` when the file cannot be read or the member is not JSON.
    /// - Complexity: O(n) in the file's bytes; memory one chunk and the member.
    static func scan(path: String) throws(InputError) -> JSONValue? {
        let source = try ByteSource(path: path)
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
        defer { chunk.deallocate() }
        var depth = 0, inString = false, escaped = false, expectKey = false
        var key: [UInt8] = [], lastKey: [UInt8] = [], capturing = false, captured: [UInt8] = []
        while true {
            let count = try source.read(into: chunk)
            if count == 0 { return nil }
            for byte in chunk[0..<count] {
                if capturing {
                    if !inString && depth == 1 && (byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}")) {
                        do throws(JSONSyntaxError) {
                            return try JSONParser.parse(captured)
                        } catch {
                            throw InputError(file: path, message: "the crs member is not valid JSON: \(error.description)")
                        }
                    }
                    captured.append(byte)
                    if captured.count > 1 << 20 {
                        throw InputError(file: path, message: "the crs member is longer than 1 MiB")
                    }
                }
                if inString {
                    if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") {
                        inString = false
                        if depth == 1 && expectKey { lastKey = key; expectKey = false }
                    } else if depth == 1 && expectKey && key.count < 8 {
                        key.append(byte)
                    }
                    continue
                }
                switch byte {
                case UInt8(ascii: "\""):
                    inString = true
                    if depth == 1 && expectKey { key.removeAll(keepingCapacity: true) }
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                    if depth == 1 { expectKey = true }
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                case UInt8(ascii: ","):
                    if depth == 1 { expectKey = true }
                case UInt8(ascii: ":"):
                    if depth == 1 && !capturing && lastKey == Array("crs".utf8) { capturing = true }
                default:
                    break
                }
            }
        }
    }
}

/// A reason to refuse a file, without the file yet (`InputError` adds it).
struct InputErrorReason: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
