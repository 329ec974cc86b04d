import CairnCheckIns
import CairnCore
import Dispatch
import Hummingbird

extension ServerRoutes {
    /// `POST /checkins/validate`: check-ins as CSV (`text/csv`, the default) or JSON lines (`application/x-ndjson`)
    /// judged against the store's places and events, the verdict rows streamed back as `cairn checkins validate`
    /// writes them (`format=csv|jsonl`). A body the validator refuses as a whole (a CSV header without the required
    /// columns) is a 400 before any row is sent.
    func validateCheckIns(_ request: Request) async throws -> Response {
        let parameters = QueryParameters(request)
        let type = request.headers[.contentType] ?? "text/csv"
        let inputFormat: CheckInInputFormat = type.contains("json") ? .jsonl : .csv
        let outputName = parameters.text("format") ?? "csv"
        guard let outputFormat = CheckInOutputFormat(rawValue: outputName) else {
            throw RequestError(.badRequest, "format '\(outputName)' is not one of csv, jsonl", parameter: "format")
        }
        let body = try await SavedBody.save(request, maxBytes: configuration.maxBodyBytes, fileExtension: inputFormat.rawValue)
        let validator = try served.checkInValidator()
        let input: CheckInBatchInput
        do {
            input = try CheckInBatchInput(path: body.path)
        } catch {
            throw RequestError(.badRequest, error.description)
        }
        let batch = CheckInBatchValidator(validator: validator, inputFormat: inputFormat, outputFormat: outputFormat,
                                          countsVisits: false, workers: configuration.threads)
        let (stream, continuation) = AsyncThrowingStream<ByteBuffer, any Error>.makeStream()
        // The pipeline blocks its thread (and runs its own workers): off the event loops and the task pool.
        let job = CheckInJob(batch: batch, input: input, body: body)
        DispatchQueue.global().async {
            do {
                try job.batch.run(input: job.input) { continuation.yield(ByteBuffer(bytes: $0)) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
            withExtendedLifetime(job.body) {}
        }
        let rows = StreamBox(stream.makeAsyncIterator())
        let first: ByteBuffer?
        do {
            first = try await rows.next()
        } catch let error as CheckInError {
            throw RequestError(.badRequest, error.description)
        }
        let contentType = outputFormat == .csv ? "text/csv; charset=utf-8" : "application/x-ndjson"
        return Response(status: .ok, headers: [.contentType: contentType], body: ResponseBody { writer in
            if let first { try await writer.write(first) }
            while let chunk = try await rows.next() { try await writer.write(chunk) }
            try await writer.finish(nil)
        })
    }
}

/// The iterator of the verdict stream, handed from the handler to the body writer (one reader at a time).
private final class StreamBox: @unchecked Sendable {
    private var iterator: AsyncThrowingStream<ByteBuffer, any Error>.AsyncIterator

    init(_ iterator: AsyncThrowingStream<ByteBuffer, any Error>.AsyncIterator) {
        self.iterator = iterator
    }

    func next() async throws -> ByteBuffer? {
        try await iterator.next()
    }
}

/// What the pipeline's thread takes over from the handler: used there only, never by the handler again.
private struct CheckInJob: @unchecked Sendable {
    let batch: CheckInBatchValidator
    let input: CheckInBatchInput
    let body: SavedBody
}
