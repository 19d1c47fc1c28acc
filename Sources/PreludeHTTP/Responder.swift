/// Turns parsed requests into responses: routing, the engine's own answers (404, 405, 501, OPTIONS),
/// and running handlers with their errors rendered (RFC 9457 problem documents).
///
/// A class: the event loop calls it for every request, and a reference is passed and kept without copying the
/// router's tables.
package final class Responder: Sendable {
    /// What to do with a request once its head is known.
    package enum Decision: Sendable {
        /// Run this route's handler.
        case route(Router.Route, parameters: PathParameters)
        /// Answer without a handler; `close` ends the connection afterwards.
        case fixed(HTTPResponse, close: Bool)
    }

    /// The methods this engine implements (RFC 9110 §9.1: others → 501).
    package static let implementedMethods: [HTTPMethod] = [.get, .head, .post, .put, .patch, .delete, .options]

    /// The routes.
    package let router: Router
    /// The body limit for routes without their own.
    package let defaultMaxBodySize: Int

    package init(router: Router, defaultMaxBodySize: Int) {
        self.router = router
        self.defaultMaxBodySize = defaultMaxBodySize
    }

    /// Routes a head.
    package func decide(_ head: RequestHead) -> Decision {
        // RFC 9110 §9.1: a method the origin server does not recognise or implement → 501.
        guard Self.implementedMethods.contains(head.method) else {
            return .fixed(
                ProblemDetails(status: .notImplemented, detail: "method \(head.method) is not implemented").response(),
                close: true)
        }
        if head.isAsterisk {
            // RFC 9110 §9.3.7: OPTIONS * asks about the server as a whole.
            var headers = HTTPHeaders()
            headers.add("Allow", Self.implementedMethods.map(\.rawValue).joined(separator: ", "))
            return .fixed(HTTPResponse(status: .noContent, headers: headers), close: false)
        }
        switch router.lookup(method: head.method, path: head.path) {
        case .found(let route, let parameters):
            return .route(route, parameters: parameters)
        case .methodNotAllowed(var allowed):
            if !allowed.contains(.options) { allowed.append(.options) }
            let allow = allowed.map(\.rawValue).joined(separator: ", ")
            if head.method == .options {
                // RFC 9110 §9.3.7: describe the communication options of the target resource.
                return .fixed(HTTPResponse(status: .noContent, headers: ["Allow": allow]), close: false)
            }
            // RFC 9110 §15.5.6: 405 MUST carry Allow.
            let problem = ProblemDetails(
                status: .methodNotAllowed, detail: "\(head.method) is not allowed on this resource",
                instance: head.path,
                headers: ["Allow": allow])
            return .fixed(problem.response(), close: false)
        case .notFound:
            return .fixed(
                ProblemDetails(status: .notFound, detail: "no resource at this path", instance: head.path).response(),
                close: false)
        }
    }

    /// The body limit for a decision.
    package func maxBodySize(for decision: Decision) -> Int {
        if case .route(let route, _) = decision, let limit = route.options.maxBodySize { return limit }
        return defaultMaxBodySize
    }

    /// Whether the decision can run on the event loop.
    package func runsInline(_ decision: Decision) -> Bool {
        switch decision {
        case .fixed: true
        case .route(let route, _): route.options.runsInline
        }
    }

    /// Produces the response, running the handler if there is one. Never throws: errors render themselves,
    /// and anything else becomes a 500 problem without internal details. A deferred route's handler is waited for.
    package static func respond(
        _ decision: Decision, head: consuming RequestHead, body: [UInt8], remoteAddress: String,
        requestID: RequestIdentifier = .none,
        eventHandler: (@Sendable (HTTPServerEvent) -> Void)? = nil
    ) -> HTTPResponse {
        switch decision {
        case .fixed(let response, _):
            return response
        case .route(let route, let parameters):
            let method = head.method
            // The head's strings and arrays move into the request (its last use), without a retain each.
            let request = makeRequest(
                head: consume head, body: body, parameters: parameters, remoteAddress: remoteAddress,
                requestID: requestID)
            do {
                return try route.handler(request)
            } catch {
                return render(error, route: route, method: method, requestID: requestID, eventHandler: eventHandler)
            }
        }
    }

    /// Starts a deferred route's handler; `completion` gets the response exactly once, possibly on another
    /// thread and possibly before this returns. Errors are rendered as ``respond(_:head:body:remoteAddress:requestID:eventHandler:)``
    /// renders them.
    package static func start(
        _ route: Router.Route, deferred handler: HTTPDeferredHandler, parameters: PathParameters,
        head: RequestHead, body: [UInt8], remoteAddress: String, requestID: RequestIdentifier,
        eventHandler: (@Sendable (HTTPServerEvent) -> Void)?, completion: @escaping @Sendable (HTTPResponse) -> Void
    ) {
        let request = makeRequest(
            head: head, body: body, parameters: parameters, remoteAddress: remoteAddress, requestID: requestID)
        let method = head.method
        do {
            try handler(request) { result in
                switch result {
                case .success(let response): completion(response)
                case .failure(let error):
                    completion(
                        render(error, route: route, method: method, requestID: requestID, eventHandler: eventHandler))
                }
            }
        } catch {
            completion(render(error, route: route, method: method, requestID: requestID, eventHandler: eventHandler))
        }
    }

    private static func makeRequest(
        head: consuming RequestHead, body: [UInt8], parameters: PathParameters, remoteAddress: String,
        requestID: RequestIdentifier
    ) -> HTTPRequest {
        HTTPRequest(
            head: head, body: body, pathParameters: parameters, remoteAddress: remoteAddress, requestID: requestID)
    }

    private static func render(
        _ error: any Error, route: Router.Route, method: HTTPMethod, requestID: RequestIdentifier,
        eventHandler: (@Sendable (HTTPServerEvent) -> Void)?
    ) -> HTTPResponse {
        let response: HTTPResponse
        if let error = error as? any HTTPResponseError {
            response = error.response()
            // A 500 is a failure, not a refusal, even from an error that renders itself: reported like any other.
            guard response.status == .internalServerError else { return response }
        } else {
            response = ProblemDetails(status: .internalServerError, detail: "the server failed to handle the request")
                .response()
        }
        eventHandler?(
            .handlerFailed(
                method: method, route: route.pattern, error: String(describing: error), requestID: requestID.text))
        return response
    }
}
