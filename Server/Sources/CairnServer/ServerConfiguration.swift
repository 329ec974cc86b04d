#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

import CairnCore

/// How `cairn serve` runs: where it listens, what it serves, and the limits that keep one request from costing
/// the others.
public struct ServerConfiguration: Sendable {
    /// The store served (an SQLite file made by `cairn import`).
    public var storePath: String
    /// The address listened on; loopback by default, so that exposing the server is a decision.
    public var host = "127.0.0.1"
    /// The TCP port; 0 picks a free one.
    public var port = 8080
    /// Event-loop threads answering requests; one per core by default.
    public var threads: Int
    /// The bearer token that writes need; nil makes the server read-only.
    public var writeToken: String?
    /// The most results one response holds; a `limit` above it is refused (400), and a longer answer is cut
    /// there and says so (`/features` gives a cursor for the rest).
    public var maxResults = 10_000
    /// The largest request body read, in bytes (a `POST /features` or `/checkins/validate`); more gets 413.
    public var maxBodyBytes = 64 << 20
    /// A connection idle this long, mid-request included, is closed.
    public var idleTimeoutSeconds = 30
    /// The longest a request's work may take, in seconds (computing an answer, a cluster build, a check-in run);
    /// past it the request gets a 503 and its work stops. Sending an answer already made is not counted.
    public var requestTimeLimitSeconds = 30.0
    /// The bytes of answers made for one client and not yet sent to it, for the whole server; an answer that
    /// would go over is refused with a 503 (`UnsentAnswerBudget`).
    public var maxUnsentAnswerBytes = 128 << 20
    /// How often the store's generation is read to pick up another process's import, in seconds.
    public var reloadIntervalSeconds = 1.0
    /// The bytes of answers kept per state of the store, so that a repeated request is not computed again (0: none).
    public var answerCacheBytes = 256 << 20
    /// Where the map page's Leaflet is read from (Debian's `libjs-leaflet` by default).
    public var leafletFolder = "/usr/share/javascript/leaflet"
    /// A GeoJSON file of outlines the map page draws under the data (nil: a graticule only).
    public var basemapPath: String?
    /// Whether answers above 1 KiB are sent gzip-compressed to clients whose `Accept-Encoding` allows it.
    public var gzip = true
    /// The clustering options of `/clusters` (those of `cairn cluster` by default).
    public var clusterOptions = ClusterOptions.standard

    /// A configuration serving the store at `storePath` with the defaults above.
    public init(storePath: String, threads: Int = ServerConfiguration.coreCount) {
        self.storePath = storePath
        self.threads = threads
    }

    /// The number of cores the system reports.
    public static var coreCount: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }
}
