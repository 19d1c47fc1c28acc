import PreludeCore
import PreludeHTTP

#if canImport(FoundationEssentials)
    import Dispatch
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

/// JSON responses of the admin API, compact or pretty-printed on request.
package enum AdminResponse {
    /// Whether the client asked for indented JSON: `?pretty` (any value but `false`/`0`) or an `Accept` media
    /// range with an `indent` parameter (`Accept: application/json; indent`).
    package static func wantsPretty(_ request: HTTPRequest) -> Bool {
        if let value = request.queryValue("pretty") { return value != "false" && value != "0" }
        guard let accept = request.headers["Accept"] else { return false }
        return accept.split(separator: ",").contains { range in
            range.split(separator: ";").dropFirst().contains {
                let name = $0.split(separator: "=", maxSplits: 1).first ?? ""
                return name.trimmingWhitespace().lowercased() == "indent"
            }
        }
    }

    /// A JSON response; `Cache-Control: no-store` because admin data must not sit in shared caches (RFC 9111 §5.2.2.5).
    package static func json(
        _ value: JSONValue, pretty: Bool, status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders()
    ) -> HTTPResponse {
        var response = HTTPResponse(
            status: status, headers: headers, body: value.serializedBytes(pretty ? .pretty : .compact))
        response.headers.set("Content-Type", "application/json")
        response.headers.set("Cache-Control", "no-store")
        return response
    }

    /// A JSON response from stored JSON text: the bytes as stored, or re-indented when `pretty`.
    package static func json(storedText: String, pretty: Bool, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        var body = Array(storedText.utf8)
        if pretty, let value = try? JSONValue(parsing: body) { body = value.serializedBytes(.pretty) }
        var response = HTTPResponse(status: .ok, headers: headers, body: body)
        response.headers.set("Content-Type", "application/json")
        response.headers.set("Cache-Control", "no-store")
        return response
    }

    /// A problem response, re-indented when `pretty`.
    package static func problem(_ error: any HTTPResponseError, pretty: Bool) -> HTTPResponse {
        var response = error.response()
        if pretty, let value = try? JSONValue(parsing: response.body) { response.body = value.serializedBytes(.pretty) }
        response.headers.set("Cache-Control", "no-store")
        return response
    }
}
