import CairnCLI
import CairnServer
import CairnTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// A store imported by the CLI from `csv`, served in-process, and the CLI itself to compare answers with.
final class ServerFixture: @unchecked Sendable {
    let folder: TemporaryFolder
    let db: String

    static let places = """
        id,name,lat,lon,radius,fenced,rating
        hel,Helsinki,60.16952,24.93545,2km,true,4
        esp,Espoo,60.2052,24.6522,5km,false,3
        van,Vantaa,60.2934,25.0378,4km,true,5
        suva,Suva,-18.14161,178.44149,3km,true,4
        taveuni,Taveuni east,-16.8,-179.9,1km,false,2
        west,Taveuni west,-16.8,179.995,1km,true,1
        pole,Amundsen-Scott,-90,0,10km,false,3
        twin1,Twin,60.17,24.94,,true,2
        twin2,Twin,60.17,24.94,,false,2

        """

    init(csv: String = ServerFixture.places, arguments: [String] = []) throws {
        folder = try TemporaryFolder()
        db = folder.path + "/served.sqlite"
        let file = try folder.write("input.csv", csv)
        var command = try CairnCommand.parseAsRoot(["import", file, "--db", db, "--no-progress"] + arguments)
        try command.run()
    }

    /// What the CLI writes for `arguments` (run in-process with `--db` and `--out`).
    func cli(_ arguments: [String]) throws -> String {
        let out = folder.path + "/out-\(UUID().uuidString)"
        var command = try CairnCommand.parseAsRoot(arguments + ["--db", db, "--out", out])
        try command.run()
        return try String(contentsOfFile: out, encoding: .utf8)
    }

    func configuration(writeToken: String? = nil) -> ServerConfiguration {
        var configuration = ServerConfiguration(storePath: db, threads: 2)
        configuration.writeToken = writeToken
        configuration.maxResults = 1000
        configuration.reloadIntervalSeconds = 0.05
        return configuration
    }

    /// Runs `body` with a client of a server over the store.
    func withServer<T>(writeToken: String? = nil, configure: (inout ServerConfiguration) -> Void = { _ in },
                       _ body: @escaping @Sendable (any TestClientProtocol) async throws -> T) async throws -> T {
        var configuration = configuration(writeToken: writeToken)
        configure(&configuration)
        let app = try CairnServer.makeApplication(configuration: configuration)
        return try await app.test(.router, body)
    }
}

extension TestClientProtocol {
    /// The status and body of a request.
    func call(_ uri: String, method: HTTPRequest.Method = .get, headers: HTTPFields = [:], body: String? = nil) async throws -> (status: HTTPResponse.Status, body: String, headers: HTTPFields) {
        try await execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) }) { response in
            (response.status, String(buffer: response.body), response.headers)
        }
    }

    /// The body of a GET that must answer 200.
    func get(_ uri: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let (status, body, _) = try await call(uri)
        #expect(status == .ok, "\(uri): \(body)", sourceLocation: sourceLocation)
        return body
    }
}

/// A cluster answer with the server's epoch taken out of its cluster ids (`"cluster_id":N`, `"id":N` with N at or
/// above 2^32 become N mod 2^32): the ids the CLI gives for the same hierarchy.
func withoutEpoch(_ text: String) -> String {
    var result = ""
    var rest = Substring(text)
    while let range = rest.firstRange(of: /"(cluster_id|id)":(\d{10,})/) {
        result += rest[..<range.lowerBound]
        let match = rest[range]
        let digits = match.drop { !$0.isNumber || $0 == "\"" }.drop { !$0.isNumber }
        let key = match.prefix { $0 != ":" }
        result += key + ":" + String((UInt64(digits) ?? 0) & 0xFFFF_FFFF)
        rest = rest[range.upperBound...]
    }
    return result + rest
}

/// The lines of a collection without their separating commas, sorted: its features whatever their order.
func sortedLines(_ text: String) -> [String] {
    text.split(separator: "\n").map { $0.hasSuffix(",") ? String($0.dropLast()) : String($0) }.sorted()
}

/// The `error` and `parameter` members of a JSON error body.
func errorBody(_ text: String) throws -> (error: String, parameter: String?) {
    let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
    return (object["error"] as? String ?? "", object["parameter"] as? String)
}
