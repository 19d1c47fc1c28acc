import PreludeCore
import PreludeHTTP

#if canImport(FoundationEssentials)
    import Dispatch
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

/// Reads the JSON body of an admin write, refusing before anything is looked at when the body cannot be one.
package enum AdminRequestBody {
    /// `application/json`.
    package static let json = "application/json"
    /// RFC 7396 §4: the media type of a JSON Merge Patch.
    package static let mergePatch = "application/merge-patch+json"

    /// The parsed body. Throws 415 for a missing or other media type, a charset other than UTF-8 (PreludeHTTP's one
    /// rule, ``PreludeHTTP/JSONMediaType``) or a content coding (RFC 9110 §15.5.16), and 400 with the position for text that is not JSON.
    package static func parse(_ request: HTTPRequest, accepting types: [String] = [json]) throws(ProblemDetails)
        -> JSONValue
    {
        try checkMediaType(request, accepting: types)
        do {
            return try JSONValue(parsing: request.body)
        } catch {
            throw AdminProblem.malformedJSON(error)
        }
    }

    /// Checks `Content-Type` and `Content-Encoding` only.
    package static func checkMediaType(_ request: HTTPRequest, accepting types: [String]) throws(ProblemDetails) {
        var headers = HTTPHeaders()
        // RFC 5789 §2.2: a 415 for PATCH advertises the patch formats with Accept-Patch.
        if request.method == .patch { headers.set("Accept-Patch", types.joined(separator: ", ")) }
        if let coding = request.headers["Content-Encoding"], coding.lowercased() != "identity" {
            throw ProblemDetails(
                status: .unsupportedMediaType,
                detail: "request bodies must not be encoded (Content-Encoding: \(coding))",
                headers: headers)
        }
        try JSONMediaType.require(request, accepting: .only(types), headers: headers)
    }
}
