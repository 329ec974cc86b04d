import CairnCheckIns
import CairnCore
import Dispatch
import Hummingbird

extension ServerRoutes {
    /// `POST /checkins/validate`: check-ins as CSV (`text/csv`, the default) or JSON lines (`application/x-ndjson`)
    /// judged against the store's places and events, the verdict rows streamed back as `cairn checkins validate`
    /// writes them (`format=csv|jsonl`). A body the validator refuses as a whole (a CSV header without the required
    /// columns) is a 400 before any row is sent.
    ///
    /// The run stops (at its next batch, about 8 MB of input) when the client closes its connection or the request's
    /// time limit passes: before the first row that is a 503, after it the answer is cut (the connection closes
    /// without the chunked body's end, so no client takes it for whole). The rows wait for the client: at most
    /// `pendingChunks` of them are held.
    func validateCheckIns(_ request: Request) async throws -> Response {
        let parameters = QueryParameters(request)
        let type = request.headers[.contentType] ?? "text/csv"
        let inputFormat: CheckInInputFormat = type.contains("json") ? .jsonl : .csv
        let outputName = parameters.text("format") ?? "csv"
        guard let outputFormat = CheckInOutputFormat(rawValue: outputName) else {
            throw RequestError(.badRequest, "format '\(outputName)' is not one of csv, jsonl", parameter: "format")
        }
        let body = try await SavedBody.save(request, maxBytes: configuration.maxBodyBytes, fileExtension: inputFormat.rawValue)
        // The time limit counts from here: a slow upload is the idle timeout's, not the work's.
        let work = limits.work()
        let validator = try served.checkInValidator()
        let input: CheckInBatchInput
        do {
            input = try CheckInBatchInput(path: body.path)
        } catch {
            throw RequestError(.badRequest, error.description)
        }
        let batch = CheckInBatchValidator(validator: validator, inputFormat: inputFormat, outputFormat: outputFormat,
                                          countsVisits: false, workers: configuration.threads)
        batch.shouldStop = { work.shouldStop }
        let rows = VerdictQueue(capacity: Self.pendingChunks)
        // The pipeline blocks its thread (and runs its own workers): off the event loops and the task pool.
        let job = CheckInJob(batch: batch, input: input, body: body)
        let limits = self.limits
        DispatchQueue.global().async {
            do {
                try job.batch.run(input: job.input) { rows.put($0, unless: work) }
                rows.finish(nil)
            } catch {
                rows.finish(limits.stopped(work) ?? error)
            }
            limits.checkInRowsJudged.increment(by: Int64(job.batch.rows))
            withExtendedLifetime(job.body) {}
        }
        let first: ByteBuffer?
        do {
            first = try await rows.next()
        } catch let error as CheckInError {
            throw RequestError(.badRequest, error.description)
        }
        let contentType = outputFormat == .csv ? "text/csv; charset=utf-8" : "application/x-ndjson"
        let channel = RequestChannel.current, stallSeconds = limits.stallSeconds
        return Response(status: .ok, headers: [.contentType: contentType], body: ResponseBody { writer in
            let watchdog = StallWatchdog(channel: channel, stallSeconds: stallSeconds)
            defer { watchdog.stop() }
            var chunk = first
            while let bytes = chunk {
                try await writer.write(bytes)
                watchdog.wrote(bytes.readableBytes)
                try await channel?.settle()
                chunk = try await rows.next()
            }
            try await writer.finish(nil)
        })
    }

    /// Chunks of verdict rows held for a slow client (each is what one piece of a batch renders, well under a MB).
    static let pendingChunks = 4
}

/// What the pipeline's thread takes over from the handler: used there only, never by the handler again.
private struct CheckInJob: @unchecked Sendable {
    let batch: CheckInBatchValidator
    let input: CheckInBatchInput
    let body: SavedBody
}
