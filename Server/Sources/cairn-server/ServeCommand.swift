import ArgumentParser
import CairnCore
import CairnServer
import Foundation
import Logging

/// `cairn serve`, the map backend over HTTP: the root command of `cairn-server`, which `cairn serve` runs with its
/// own arguments (so that usage and messages read `cairn serve`, as the user typed).
@main
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cairn serve",
        abstract: "Serve the store over HTTP: the map backend (around_location, the viewfinder, clusters, edits, check-ins).",
        discussion: """
            Loads the store's features and clusters once, answers from memory, and follows the store: another \
            process's import shows up within --reload-seconds. Writes (PUT, DELETE, POST /features) need \
            'Authorization: Bearer TOKEN' with --write-token or CAIRN_WRITE_TOKEN; without one the server is read-only. \
            SIGTERM or SIGINT lets the requests in flight finish, then exits 0. Endpoints: README.md, "Map backend".
            """,
        version: CairnVersion.current
    )

    @Option(name: .customLong("db"), help: ArgumentHelp("The store: an SQLite file, or postgres://user@host:port/database, a PostgreSQL store this server is then a replica of (it follows the store's changes as they commit).", valueName: "path|url"))
    var storePath: String = "cairn.sqlite"

    @Option(help: "The address to listen on (loopback by default).")
    var host = "127.0.0.1"

    @Option(parsing: .unconditional, help: "The TCP port (0: any free port, printed at start).")
    var port = 8080

    @Option(parsing: .unconditional, help: "Threads answering requests (default: one per core).")
    var threads: Int?

    @Option(name: .customLong("write-token"), help: ArgumentHelp("The bearer token writes need (default: $CAIRN_WRITE_TOKEN; none: read-only).", valueName: "token"))
    var writeToken: String?

    @Option(name: .customLong("max-results"), parsing: .unconditional, help: "The most results one response holds (a larger limit is refused).")
    var maxResults = 10_000

    @Option(name: .customLong("max-body-mib"), parsing: .unconditional, help: "The largest request body, in MiB.")
    var maxBodyMiB = 64

    @Option(name: .customLong("idle-timeout-seconds"), parsing: .unconditional, help: "Close a connection idle this long, in seconds (one whose client reads none of its answer for this long, twice over, too).")
    var idleTimeoutSeconds = 30

    @Option(name: .customLong("request-time-limit-seconds"), parsing: .unconditional, help: "The longest a request's work may take, in seconds; past it the request gets 503 and its work stops (sending an answer already made is not counted).")
    var requestTimeLimitSeconds = 30.0

    @Option(name: .customLong("max-unsent-answers-mib"), parsing: .unconditional, help: "Answers made for one client and not yet read by it, in MiB for the whole server; more gets 503 (answers kept in the answer cache are shared and not counted).")
    var maxUnsentAnswersMiB = 128

    @Option(name: .customLong("answer-cache-mib"), parsing: .unconditional, help: "Answers kept per state of the store, in MiB, so a repeated request is not computed again, and a quarter as much again for the cluster features that /clusters answers are made of (0: neither).")
    var answerCacheMiB = 256

    @Option(name: .customLong("basemap"), help: ArgumentHelp("A GeoJSON file of outlines the map page at / draws under the data (e.g. Data/naturalearth-countries.geojson; default: a graticule only).", valueName: "path"))
    var basemapPath: String?
    @Flag(inversion: .prefixedNo, help: "Send answers above 1 KiB gzip-compressed to clients that accept gzip (Accept-Encoding).")
    var gzip = true

    @Option(name: .customLong("reload-seconds"), parsing: .unconditional, help: "How often to look for another process's writes to the store, in seconds.")
    var reloadSeconds = 1.0

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535, got \(port)") }
        if let threads, !(1...1024).contains(threads) { throw ValidationError("--threads must be 1 to 1024, got \(threads)") }
        guard maxResults >= 1 else { throw ValidationError("--max-results must be at least 1, got \(maxResults)") }
        guard (1...4096).contains(maxBodyMiB) else { throw ValidationError("--max-body-mib must be 1 to 4096, got \(maxBodyMiB)") }
        guard (0...65536).contains(answerCacheMiB) else { throw ValidationError("--answer-cache-mib must be 0 to 65536, got \(answerCacheMiB)") }
        guard idleTimeoutSeconds >= 1 else { throw ValidationError("--idle-timeout-seconds must be at least 1, got \(idleTimeoutSeconds)") }
        guard requestTimeLimitSeconds.isFinite, requestTimeLimitSeconds > 0 else {
            throw ValidationError("--request-time-limit-seconds must be more than 0, got \(requestTimeLimitSeconds)")
        }
        guard (1...65536).contains(maxUnsentAnswersMiB) else { throw ValidationError("--max-unsent-answers-mib must be 1 to 65536, got \(maxUnsentAnswersMiB)") }
        guard reloadSeconds.isFinite, reloadSeconds >= 0.05 else { throw ValidationError("--reload-seconds must be at least 0.05, got \(reloadSeconds)") }
    }

    func run() async throws {
        var configuration = ServerConfiguration(storePath: storePath, threads: threads ?? ServerConfiguration.coreCount)
        configuration.host = host
        configuration.port = port
        configuration.writeToken = writeToken ?? ProcessInfo.processInfo.environment["CAIRN_WRITE_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        configuration.maxResults = maxResults
        configuration.maxBodyBytes = maxBodyMiB << 20
        configuration.idleTimeoutSeconds = idleTimeoutSeconds
        configuration.reloadIntervalSeconds = reloadSeconds
        configuration.answerCacheBytes = answerCacheMiB << 20
        configuration.basemapPath = basemapPath
        configuration.gzip = gzip
        configuration.requestTimeLimitSeconds = requestTimeLimitSeconds
        configuration.maxUnsentAnswerBytes = maxUnsentAnswersMiB << 20
        var logger = Logger(label: "cairn")
        logger.logLevel = .info
        try await CairnServer.run(configuration: configuration, logger: logger)
    }
}
