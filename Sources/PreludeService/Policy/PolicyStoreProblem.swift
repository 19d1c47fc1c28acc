import PreludeHTTP

/// The problem types (RFC 9457 §3.1.1 `type` URIs) of the policy store's refusals and the public routes, the
/// constructors for the common ones, and the mapping of ``PolicyStoreError`` to its problem. The URIs are stable
/// names (`urn:prelude:problem:…`), not links.
package enum PolicyStoreProblem {
    /// No app with this id.
    package static let unknownApp = "urn:prelude:problem:unknown-app"
    /// The app exists but its live revision cannot be served.
    package static let appUnavailable = "urn:prelude:problem:app-unavailable"
    /// The app or environment exists but nothing was ever published to it.
    package static let noLiveRevision = "urn:prelude:problem:no-live-revision"
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
    /// No environment of this name in the app.
    package static let unknownEnvironment = "urn:prelude:problem:unknown-environment"
    /// Creating an environment that exists.
    package static let environmentExists = "urn:prelude:problem:environment-exists"

    /// 404 for an environment the app does not have.
    package static func unknownEnvironment(app: String, environment: String) -> ProblemDetails {
        ProblemDetails(
            status: .notFound, type: unknownEnvironment, title: "Unknown environment",
            detail: "app \"\(app)\" has no environment \"\(environment)\"",
            instance: "/v1/apps/\(app)/environments/\(environment)")
    }

    /// 404 for an unknown app.
    package static func unknownApp(_ app: String) -> ProblemDetails {
        ProblemDetails(
            status: .notFound, type: unknownApp, title: "Unknown app", detail: "no app with the id \"\(app)\"",
            instance: "/v1/apps/\(app)")
    }

    /// The problem answering `error`: 404 unknown app, 409 app exists, 422 a document for another app, 412 stale.
    package static func problem(for error: PolicyStoreError) -> ProblemDetails {
        switch error {
        case .unknownApp(let app): unknownApp(app)
        case .appExists(let app):
            ProblemDetails(
                status: .conflict, type: appExists, detail: "app \"\(app)\" already exists",
                instance: "/v1/admin/apps/\(app)")
        case .appMismatch(let app, let documentApp): appMismatch(app: app, documentApp: documentApp)
        case .unknownEnvironment(let app, let environment): unknownEnvironment(app: app, environment: environment)
        case .environmentExists(let app, let environment):
            ProblemDetails(
                status: .conflict, type: environmentExists,
                detail: "app \"\(app)\" already has an environment \"\(environment)\"",
                instance: "/v1/admin/apps/\(app)/environments/\(environment)")
        case .stale(let current): preconditionFailed(current: current)
        }
    }

    /// 422 for a document whose `app.id` (`documentApp`) is not the addressed `app`.
    package static func appMismatch(app: String, documentApp: String) -> ProblemDetails {
        ProblemDetails(
            status: .unprocessableContent, type: appMismatch,
            detail: "the document is for app \"\(documentApp)\", not \"\(app)\"",
            errors: [
                FieldProblem(
                    pointer: "/app/id", code: "app.mismatch", detail: "app.id must be \"\(app)\" at this address")
            ])
    }

    /// 412 naming the live revision's ETag (and sending it in the `ETag` header) so the client can re-read.
    package static func preconditionFailed(current: ServedPolicy?) -> ProblemDetails {
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
