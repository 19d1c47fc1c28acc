import PreludeHTTP

/// The problem types (RFC 9457 §3.1.1 `type` URIs) the policy store and the public routes answer with, and
/// constructors for the common ones. The URIs are stable names (`urn:prelude:problem:…`), not links.
package enum PolicyStoreProblem {
    /// No app with this id.
    package static let unknownApp = "urn:prelude:problem:unknown-app"
    /// The app exists but its live revision cannot be served.
    package static let appUnavailable = "urn:prelude:problem:app-unavailable"
    /// No revision with this number.
    package static let unknownRevision = "urn:prelude:problem:unknown-revision"
    /// An old revision that no longer validates.
    package static let invalidRevision = "urn:prelude:problem:invalid-revision"
    /// Creating an app that exists.
    package static let appExists = "urn:prelude:problem:app-exists"
    /// A document whose `app.id` is not the app addressed.
    package static let appMismatch = "urn:prelude:problem:app-mismatch"
    /// `If-Match` names another revision.
    package static let staleETag = "urn:prelude:problem:stale-etag"

    /// 404 for an unknown app.
    package static func unknownApp(_ app: String) -> ProblemDetails {
        ProblemDetails(
            status: .notFound, type: unknownApp, title: "Unknown app", detail: "no app with the id \"\(app)\"",
            instance: "/v1/apps/\(app)")
    }

    /// 412 naming the live revision's ETag (and sending it in the `ETag` header) so the client can re-read.
    package static func preconditionFailed(current: LiveSnapshot?) -> ProblemDetails {
        var headers = HTTPHeaders()
        if let current { headers.set("ETag", current.etag.headerValue) }
        let detail =
            current.map {
                "If-Match does not name the live revision; revision \($0.revision) is live with ETag \($0.etag.headerValue): re-read, merge and retry"
            } ?? "If-Match does not match: the app has no servable live revision (use If-Match: * to replace it)"
        return ProblemDetails(
            status: .preconditionFailed, type: staleETag, title: "Stale ETag", detail: detail, headers: headers)
    }
}
