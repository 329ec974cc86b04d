import CairnTestSupport
import Foundation
import HTTPTypes
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The server's limits against clients that cost the others (issue #15, "The server"): work over the request
/// time limit, a client that disconnects mid-answer, 1,000 connections held, slow clients that do not read.
/// In-process where the router shows it; else `cairn serve` as a child process on a free port, the clients raw
/// sockets. No assertion on a time: the times measured are printed for the record.
@Suite(.serialized) struct ServerRobustnessTests {
    // MARK: The request time limit

    @Test func checkInWorkOverTheTimeLimitGets503() async throws {
        let fixture = try ServerFixture(csv: "id,name,lat,lon,radius\nhall,Hall,60.17,24.94,100m\n")
        try await fixture.withServer(configure: { $0.requestTimeLimitSeconds = 1e-9 }) { client in
            let body = "id,user,place,lat,lon,time\nc1,u1,hall,60.17,24.94,2026-06-01T18:30:00Z\n"
            let (status, text, _) = try await client.call("/checkins/validate", method: .post, headers: [.contentType: "text/csv"], body: body)
            #expect(status == .serviceUnavailable, "\(text)")
            #expect(try errorBody(text).error.contains("--request-time-limit-seconds"))
            // Work that cannot run long is not limited.
            #expect(try await client.get("/healthz").hasPrefix("{\"status\":\"ok\""))
        }
    }

    @Test func aClusterBuildOverTheTimeLimitGets503() async throws {
        let fixture = try ServerFixture()
        try await fixture.withServer(configure: { $0.requestTimeLimitSeconds = 1e-9 }) { client in
            // A filter's hierarchy is built at its first request: work, and over the limit.
            let (status, text, _) = try await client.call("/clusters?zoom=3&where=rating%3E=3")
            #expect(status == .serviceUnavailable, "\(text)")
            #expect(try errorBody(text).error.contains("--request-time-limit-seconds"))
            // The hierarchy over every feature is built at start: no work left for a request.
            _ = try await client.get("/clusters?zoom=3")
        }
    }

    @Test func aClusterBuildWithinTheTimeLimitAnswersAsBefore() async throws {
        let fixture = try ServerFixture()
        let (expected, served) = try await fixture.withServer { client in
            (try fixture.cli(["cluster", "--zoom", "3", "--where", "rating>=3"]), try await client.get("/clusters?zoom=3&where=rating%3E=3"))
        }
        #expect(withoutEpoch(served) == expected)
    }

    // MARK: Large answers, streamed

    /// `count` places on a grid, each with a long note, so that 10,000 of them make an answer of about 6 MB: more
    /// than the kernel's socket buffers take for a client that does not read.
    static func places(_ count: Int) -> String {
        var csv = "id,name,lat,lon,kind,rating,note\n"
        for row in 0..<count {
            csv += "place-\(row),Place number \(row),\(Double(row % 160) - 80 + 0.5),\(Double(row / 160 % 340) - 170 + 0.25),park,\(row % 5),"
            csv += String(repeating: "a note long enough to make each feature half a kilobyte ", count: 7) + "\(row)\n"
        }
        return csv
    }

    @Test func aStreamedAnswerIsTheCLIsBytesWithItsLength() async throws {
        let fixture = try ServerFixture(csv: Self.places(2_000))
        let expected = try fixture.cli(["bbox", "--bbox", "-180,-90,180,90", "--limit", "1000"])
        #expect(expected.utf8.count > 2 * (128 << 10), "the answer must span several chunks to test them")
        // Made for this client alone (no answer cache).
        let (status, body, headers) = try await fixture.withServer(configure: { $0.answerCacheBytes = 0 }) { client in
            try await client.call("/features?bbox=-180,-90,180,90&limit=1000")
        }
        #expect(status == .ok)
        #expect(body == expected)
        #expect(headers[.contentLength] == String(expected.utf8.count))
        // Kept by the cache, and sent from it, twice.
        try await fixture.withServer { client in
            for _ in 0..<2 {
                let body = try await client.get("/features?bbox=-180,-90,180,90&limit=1000")
                #expect(body == expected)
            }
        }
    }

    // MARK: Clients as processes would be

    /// Starts `cairn serve` with `arguments` more on a free port: the process and its port.
    static func start(_ fixture: ServerFixture, _ arguments: [String] = []) throws -> (CairnProcess, UInt16) {
        let server = try CairnProcess(["--db", fixture.db, "--port", "0"] + arguments, in: fixture.folder.path,
                                      executable: "cairn-server")
        try server.waitForStandardError(containing: "cairn serve: listening on ", timeoutSeconds: 120)
        let line = try #require(server.standardError.split(separator: "\n").first { $0.contains("cairn serve: listening on ") })
        let address = String(line.split(separator: " ")[4])
        let port = try #require(address.split(separator: ":").last.flatMap { UInt16($0) })
        return (server, port)
    }

    /// A metric's value in the server's `/metrics` (0 when it is not there yet).
    static func metric(_ name: String, port: UInt16) throws -> Double {
        let text = try ServerProcessTests.get("http://127.0.0.1:\(port)/metrics")
        let line = text.split(separator: "\n").first { $0.hasPrefix(name + " ") || $0.hasPrefix(name + "{") }
        return line.flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0
    }

    /// Asks `metric` until `holds` or `timeoutSeconds` pass; the last value.
    static func waitForMetric(_ name: String, port: UInt16, timeoutSeconds: Double = 120, until holds: (Double) -> Bool) throws -> Double {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        var value = try metric(name, port: port)
        while !holds(value), Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            value = try metric(name, port: port)
        }
        return value
    }

    /// The server's resident memory in bytes (Linux `/proc`).
    static func residentBytes(_ process: CairnProcess) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }

    @Test func aClientThatDisconnectsStopsItsCheckInRun() throws {
        let fixture = try ServerFixture(csv: "id,name,lat,lon,radius\nhall,Hall,60.17,24.94,100m\n")
        // About 50 MB: six or seven of the pipeline's batches, while a client gone is seen within one.
        let rows = 900_000
        var body = "id,user,place,lat,lon,time\n"
        body.reserveCapacity(rows * 56)
        for row in 0..<rows { body += "c\(row),u\(row % 5000),hall,60.17,24.94,2026-06-01T18:30:00Z\n" }
        let (server, port) = try Self.start(fixture, ["--max-body-mib", "128"])
        defer { server.send(signal: SIGTERM) }
        let connection = try RawConnection(port: port, receiveBufferBytes: 4096)
        try connection.send("POST /checkins/validate HTTP/1.1\r\nHost: test\r\nContent-Type: text/csv\r\nContent-Length: \(body.utf8.count)\r\n\r\n")
        try connection.send(body)
        // The head comes with the first rows: the run has started. Then the client goes.
        #expect(try connection.receive(atLeast: 12).hasPrefix("HTTP/1.1 200"))
        connection.close()
        let gone = try Self.waitForMetric("cairn_work_stopped_client_gone_total", port: port) { $0 >= 1 }
        #expect(gone == 1, "the run went on after its client went (stderr: \(server.standardError))")
        let judged = try Self.metric("cairn_checkin_rows_judged_total", port: port)
        #expect(judged < Double(rows), "all \(rows) rows were judged for a client that went")
        print("check-in run of \(rows) rows stopped by its client's close after \(Int(judged)) rows")
    }

    @Test func aThousandIdleConnectionsLeaveHealthzAnswering() throws {
        try RawConnection.allowFiles(4_096)
        let fixture = try ServerFixture()
        let (server, port) = try Self.start(fixture, ["--idle-timeout-seconds", "600"])
        defer { server.send(signal: SIGTERM) }
        var held: [RawConnection] = []
        for _ in 0..<1_000 {
            let connection = try RawConnection(port: port)
            // Keep-alive: one request answered, then the connection stays open and idle.
            try connection.send("GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n")
            #expect(try connection.receive(until: "}\n").hasPrefix("HTTP/1.1 200"))
            held.append(connection)
        }
        let started = Date()
        let answer = try ServerProcessTests.get("http://127.0.0.1:\(port)/healthz")
        let seconds = Date().timeIntervalSince(started)
        #expect(answer.hasPrefix("{\"status\":\"ok\""))
        // The connections were held, not dropped: the first still answers.
        try held[0].send("GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n")
        #expect(try held[0].receive(until: "}\n").hasPrefix("HTTP/1.1 200"))
        print("/healthz with 1,000 idle keep-alive connections open: \(Int(seconds * 1000)) ms")
        for connection in held { connection.close() }
    }

    @Test func slowClientsThatDoNotReadHoldABoundedAmount() throws {
        let fixture = try ServerFixture(csv: Self.places(12_000))
        let budgetMiB = 16
        // No answer cache: every answer is this client's alone, the case the budget bounds.
        let (server, port) = try Self.start(fixture, ["--answer-cache-mib", "0", "--max-unsent-answers-mib", String(budgetMiB),
                                                      "--idle-timeout-seconds", "600"])
        defer { server.send(signal: SIGTERM) }
        // One answer read whole first: its size, and the server's memory once it has made one.
        let answerBytes = try ServerProcessTests.get("http://127.0.0.1:\(port)/features?bbox=-180,-90,180,90&limit=10000").utf8.count
        let before = try Self.residentBytes(server)
        let clients = 50
        var connections: [RawConnection] = []
        for client in 0..<clients {
            let connection = try RawConnection(port: port, receiveBufferBytes: 4096)
            try connection.send("GET /features?bbox=-180,-90,180,90&limit=10000&client=\(client) HTTP/1.1\r\nHost: test\r\n\r\n")
            connections.append(connection)
        }
        var statuses: [Substring: Int] = [:]
        for connection in connections {
            let head = try connection.receive(atLeast: 12)
            statuses[head.dropFirst(9).prefix(3), default: 0] += 1
        }
        let held = try Self.metric("cairn_unsent_answer_bytes", port: port)
        let after = try Self.residentBytes(server)
        print("\(clients) clients not reading answers of \(answerBytes >> 10) KiB: statuses \(statuses), \(Int(held) >> 20) MiB held, "
              + "RSS \(before >> 20) -> \(after >> 20) MiB")
        #expect(statuses["200", default: 0] >= 1)
        #expect(statuses["503", default: 0] >= 1, "the budget refused nothing")
        #expect(held <= Double(budgetMiB << 20))
        // Unbounded, the answers alone would add clients * answerBytes (about 150 MB).
        #expect(after - before < clients * answerBytes / 2, "RSS \(before >> 20) -> \(after >> 20) MiB")
        // Clients that go give their answers back.
        for connection in connections { connection.close() }
        #expect(try Self.waitForMetric("cairn_unsent_answer_bytes", port: port) { $0 == 0 } == 0)
    }

    @Test func aClientThatStopsReadingIsDroppedAfterTheIdleTimeout() throws {
        let fixture = try ServerFixture(csv: Self.places(12_000))
        let (server, port) = try Self.start(fixture, ["--answer-cache-mib", "0", "--idle-timeout-seconds", "1"])
        defer { server.send(signal: SIGTERM) }
        let connection = try RawConnection(port: port, receiveBufferBytes: 4096)
        try connection.send("GET /features?bbox=-180,-90,180,90&limit=10000 HTTP/1.1\r\nHost: test\r\n\r\n")
        let head = try connection.receive(atLeast: 1024)
        #expect(head.hasPrefix("HTTP/1.1 200"))
        let length = try #require(head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.split(separator: " ").last ?? "") })
        // More than the kernel's buffers take (4 MiB at most for the server's side here): the server holds the rest.
        #expect(length > 5 << 20)
        // It never reads on: the server closes the connection and lets the answer go.
        #expect(try Self.waitForMetric("cairn_unsent_answer_bytes", port: port) { $0 == 0 } == 0)
        // What was on its way still comes, then the end: short of the whole answer.
        let rest = try connection.receive(atLeast: length)
        #expect(head.utf8.count + rest.utf8.count < length)
        connection.close()
    }
}

/// A TCP connection to the loopback server, driven byte by byte as a misbehaving client would.
final class RawConnection {
    private var descriptor: Int32

    /// Connects to 127.0.0.1:`port`; `receiveBufferBytes` shrinks the kernel's buffer (set before connecting, so
    /// that the window offered stays small), so that a client that does not read takes little of an answer.
    init(port: UInt16, receiveBufferBytes: Int32? = nil) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure("socket: errno \(errno)") }
        if var size = receiveBufferBytes {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            Glibc.close(descriptor)
            throw Failure("connect to port \(port): errno \(errno)")
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// Sends all of `text`.
    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw Failure("send: errno \(errno)") }
            offset += sent
        }
    }

    /// Reads until the bytes read end with `end` (or the server closed).
    func receive(until end: String) throws -> String {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        let wanted = Array(end.utf8)
        while !bytes.ends(with: wanted), recv(descriptor, &byte, 1, 0) == 1 { bytes.append(byte) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Reads until `count` bytes came (or the server closed): only what is asked, the rest stays unread.
    func receive(atLeast count: Int) throws -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: count)
        while bytes.count < count {
            let got = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, count - bytes.count, 0) }
            guard got > 0 else { break }
            bytes += buffer[0..<got]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Closes the connection (the server sees its client go).
    func close() {
        if descriptor >= 0 { Glibc.close(descriptor) }
        descriptor = -1
    }

    deinit {
        close()
    }

    /// Raises this process's limit of open files to at least `count` when the hard limit allows (children inherit).
    static func allowFiles(_ count: Int) throws {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        guard limit.rlim_cur < rlim_t(count) else { return }
        limit.rlim_cur = min(rlim_t(count), limit.rlim_max)
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        guard limit.rlim_cur >= rlim_t(count) else { throw Failure("the open-files limit is \(limit.rlim_max), below \(count)") }
    }
}

extension Array where Element: Equatable {
    /// Whether the array ends with `suffix`.
    func ends(with suffix: [Element]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
