import PreludeCore
import PreludeHTTP
import PreludeStorage

/// `POST /v1/apps/{app}/events`: validates a batch as a whole, stores it durably, answers
/// `202 {"accepted": n, "duplicates": m}`.
package enum EventRoutes {
    /// Registers the route. The batch is decoded and validated on the worker pool, then handed to the ingestor's
    /// group commit; the 202 is sent when the commit holding it has finished, without a thread waiting for it.
    package static func register(on router: inout Router, store: PolicyStore, ingestor: EventIngestor) {
        router.addDeferred(.post, "/v1/apps/{app}/events", options: RouteOptions(maxBodySize: EventBatch.maxBodySize)) {
            request, completion in
            try requireJSON(request)
            let app = request.pathParameters["app"] ?? ""
            // Events are accepted for any app that exists, served or not (a broken policy must not lose them).
            guard store.snapshot(app: app) != nil || store.unavailability(app: app) != nil else {
                throw PolicyStoreProblem.unknownApp(app)
            }
            let batch = try EventBatch.decode(request.body, now: ingestor.now)
            ingestor.submit(app: app, batch: batch) { result in
                completion(
                    result.map { outcome in
                        .json(
                            Array(#"{"accepted":\#(outcome.accepted),"duplicates":\#(outcome.duplicates)}"#.utf8),
                            status: .accepted)
                    }.mapError { error in
                        // The app was deleted between the check and the write.
                        if let error = error as? StorageError, error.isForeignKeyViolation {
                            return PolicyStoreProblem.unknownApp(app)
                        }
                        return error
                    })
            }
        }
    }

    /// 415 unless the body is declared JSON (`application/json` or a `+json` type), RFC 9110 §15.5.16.
    package static func requireJSON(_ request: HTTPRequest) throws(ProblemDetails) {
        let type = (request.headers["Content-Type"] ?? "").split(separator: ";").first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        guard let type, type == "application/json" || type.hasSuffix("+json") else {
            throw ProblemDetails(
                status: .unsupportedMediaType, detail: "send the body as Content-Type: application/json",
                headers: ["Accept-Post": "application/json"])
        }
    }
}

extension StorageError {
    /// SQLITE_CONSTRAINT_FOREIGNKEY (787): a row refers to a parent that does not exist.
    fileprivate var isForeignKeyViolation: Bool { extendedCode == 787 }
}
