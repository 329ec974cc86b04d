import CairnIO
import Hummingbird

/// A request the server refuses, answered with its status and a JSON body `{"error": message, "parameter": name}`
/// (the parameter when one is to blame). The messages are the CLI's, with the URL's parameter names.
struct RequestError: HTTPResponseError {
    let status: HTTPResponse.Status
    let message: String
    let parameter: String?

    init(_ status: HTTPResponse.Status = .badRequest, _ message: String, parameter: String? = nil) {
        self.status = status
        self.message = message
        self.parameter = parameter
    }

    /// A 400 for an argument error of the shared parser.
    init(_ error: QueryArgumentError) {
        self.init(.badRequest, error.description, parameter: error.argument)
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var body = "{\"error\":\(TextEscaping.jsonString(message))"
        if let parameter { body += ",\"parameter\":\(TextEscaping.jsonString(parameter))" }
        body += "}\n"
        return Response(status: status, headers: [.contentType: "application/json"],
                        body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }
}
