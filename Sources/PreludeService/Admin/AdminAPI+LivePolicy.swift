import PreludeCore
import PreludeHTTP

/// What several admin routes ask of the addressed app's live policy and of a proposed document.
extension AdminAPI {
    /// The live snapshot of `app`; 404 for an unknown app, 409 for one whose live revision cannot be served (the
    /// routes that edit part of a policy need one; replacing the whole policy does not).
    func servedPolicy(_ app: String) throws -> ServedPolicy {
        guard let snapshot = store.snapshot(app: app) else {
            if let unavailable = store.unavailability(app: app) {
                throw ProblemDetails(
                    status: .conflict,
                    detail: "app \"\(app)\" is not being served (\(unavailable.reason)); replace the whole policy with "
                        + "PUT /v1/admin/apps/\(app)/policy and If-Match: *")
            }
            throw PolicyStoreProblem.unknownApp(app)
        }
        return snapshot
    }

    /// The live snapshot of `app`, nil when the app exists but its live revision cannot be served; 404 for an
    /// unknown app.
    func knownApp(_ app: String) throws -> ServedPolicy? {
        let live = store.snapshot(app: app)
        if live == nil, store.unavailability(app: app) == nil { throw PolicyStoreProblem.unknownApp(app) }
        return live
    }

    /// `candidate` as a valid document; else 422 listing every problem, the count followed by `consequence`.
    func validatedCandidate(_ candidate: JSONValue, consequence: String) throws -> PolicyDocument {
        let validation = PolicyValidator.validate(candidate)
        guard let document = validation.document else {
            let count = validation.problems.count
            throw AdminProblem.invalidPolicy(
                validation.problems, detail: "\(count) problem\(count == 1 ? "" : "s")" + consequence)
        }
        return document
    }
}
