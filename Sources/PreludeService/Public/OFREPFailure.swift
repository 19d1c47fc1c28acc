import PreludeCore
import PreludeHTTP

/// An OFREP evaluation that fails as a whole, rendered as the specification's error body (docs/ofrep/openapi.yaml):
/// `{"key", "errorCode", "errorDetails"}` for one flag (`evaluationFailure`, `flagNotFound`), `{"errorCode",
/// "errorDetails"}` for the bulk call (`bulkEvaluationFailure`), `{"errorDetails"}` for 5xx
/// (`generalErrorResponse`). Not problem+json: OpenFeature providers read these members.
package struct OFREPFailure: Error, Sendable, Equatable {
    /// The HTTP status: 400, 404, 415 or 503.
    package var status: HTTPStatus
    /// The OpenFeature error code (`PARSE_ERROR`, `TARGETING_KEY_MISSING`, `INVALID_CONTEXT`, `FLAG_NOT_FOUND`,
    /// `GENERAL`); nil for the 5xx body, which has none.
    package var errorCode: String?
    /// What is wrong, naming the context member.
    package var details: String
    /// The flag key, for single-flag errors; nil for the bulk call.
    package var key: String?

    /// A failure.
    package init(status: HTTPStatus, errorCode: String?, details: String, key: String?) {
        self.status = status
        self.errorCode = errorCode
        self.details = details
        self.key = key
    }

    /// 400 PARSE_ERROR: the body is not `{"context": {...}}`.
    package static func parse(_ details: String, key: String?) -> OFREPFailure {
        OFREPFailure(status: .badRequest, errorCode: "PARSE_ERROR", details: details, key: key)
    }

    /// 400 INVALID_CONTEXT: a context member decide would refuse.
    package static func invalidContext(_ details: String, key: String? = nil) -> OFREPFailure {
        OFREPFailure(status: .badRequest, errorCode: "INVALID_CONTEXT", details: details, key: key)
    }

    /// 404 FLAG_NOT_FOUND: the key is no feature of the app.
    package static func flagNotFound(_ key: String, details: String) -> OFREPFailure {
        OFREPFailure(status: .notFound, errorCode: "FLAG_NOT_FOUND", details: details, key: key)
    }

    /// 415: the body is not declared as UTF-8 JSON (``PreludeHTTP/JSONMediaType``, the rule decide applies), with
    /// the specification's general error body (`{"errorDetails"}`) and `Accept-Post` naming what the route takes.
    package static func unsupportedMediaType(_ details: String) -> OFREPFailure {
        OFREPFailure(status: .unsupportedMediaType, errorCode: nil, details: details, key: nil)
    }

    /// The response: the OFREP error body as `application/json`, `Cache-Control: no-store`.
    package var response: HTTPResponse {
        var object = JSONObject()
        if let key { object["key"] = .string(key) }
        if let errorCode { object["errorCode"] = .string(errorCode) }
        object["errorDetails"] = .string(details)
        var headers: HTTPHeaders = ["Content-Type": "application/json", "Cache-Control": "no-store"]
        if status == .unsupportedMediaType { headers.set("Accept-Post", "application/json") }
        return HTTPResponse(status: status, headers: headers, body: JSONValue.object(object).serializedBytes())
    }
}
