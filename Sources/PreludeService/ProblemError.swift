import PreludeCore
import PreludeHTTP
import PreludeStorage
import PreludeStore

/// An error that is answered with one problem document (RFC 9457): the service's side of PreludeHTTP's
/// ``PreludeHTTP/HTTPResponseError``, as Hummingbird's `HTTPResponseError` lets an error render itself.
///
/// The store's refusals conform here, each mapped once to its problem, so a route throws them as they come and the
/// admin route group (``AdminRouteGroup``) answers every one the same way: no route catches a store error to
/// translate it.
package protocol ProblemError: HTTPResponseError {
    /// The problem answering this error.
    var problem: ProblemDetails { get }
}

extension ProblemError {
    /// The problem document as a response.
    package func response() -> HTTPResponse { problem.response() }
}

extension ProblemDetails: ProblemError {
    /// Itself.
    package var problem: ProblemDetails { self }

    /// 500 without internals: the answer to a failure that is not a refusal (the request's own error is logged).
    package static let requestFailed = ProblemDetails(
        status: .internalServerError, detail: "the request failed; nothing was changed")
}

extension StorageError: ProblemError {
    /// 503 with `Retry-After` for a write that failed on storage (``StorageHealth/problem(for:)``); any other
    /// database failure (a constraint, a value that did not decode) 500 without internals.
    package var problem: ProblemDetails { StorageHealth.problem(for: self) ?? .requestFailed }
}

extension PolicyStoreError: ProblemError {
    /// ``PolicyStoreProblem/problem(for:)``.
    package var problem: ProblemDetails { PolicyStoreProblem.problem(for: self) }
}

extension TokenError: ProblemError {
    /// 422 for an invalid name, 409 for a name taken, 404 for no such token.
    package var problem: ProblemDetails {
        switch self {
        case .invalidName:
            AdminProblem.invalidRequest(
                description, pointer: "/name", code: "token.invalidName", status: .unprocessableContent)
        case .nameTaken: ProblemDetails(status: .conflict, detail: description)
        case .notFound: AdminProblem.notFound(description)
        }
    }
}

extension WebhookStore.Refusal: ProblemError {
    /// 404 for an unknown app, webhook or delivery; 409 for a redelivery through a disabled webhook.
    package var problem: ProblemDetails {
        switch self {
        case .unknownApp(let app): PolicyStoreProblem.unknownApp(app)
        case .unknownWebhook(let id): AdminProblem.notFound("no webhook '\(id)' in this app")
        case .unknownDelivery(let id): AdminProblem.notFound("this webhook has no delivery '\(id)'")
        case .webhookDisabled(let id):
            ProblemDetails(
                status: .conflict,
                detail: "webhook '\(id)' is disabled; enable it (PATCH {\"enabled\": true}) before redelivering")
        }
    }
}

extension ChangeRequestRefusal: ProblemError {
    /// ``ChangeRequestProblem/problem(for:)``.
    package var problem: ProblemDetails { ChangeRequestProblem.problem(for: self) }
}

extension ChangeRequestRepository.Refusal: ProblemError {
    /// 409 for a request another transition changed first, 404 for an unknown app.
    package var problem: ProblemDetails {
        switch self {
        case .changed(let id): ChangeRequestProblem.changed(id: id, current: nil, status: .conflict)
        case .unknownApp(let app): PolicyStoreProblem.unknownApp(app)
        }
    }
}

extension RolloutRepository.Refusal: ProblemError {
    /// 409 for a second live rollout of the environment or an experiment key that already has counted installs; 500
    /// without internals for a stored rollout this build cannot read.
    package var problem: ProblemDetails {
        switch self {
        case .liveRolloutExists(let id, let app):
            ProblemDetails(
                status: .conflict, detail: "rollout \(id) of \(app) is still live; complete or abort it first")
        case .keyHasData(let key):
            ProblemDetails(
                status: .conflict, detail: "experiment key \"\(key)\" already has counted installs; choose another key")
        case .unreadable: .requestFailed
        }
    }
}
