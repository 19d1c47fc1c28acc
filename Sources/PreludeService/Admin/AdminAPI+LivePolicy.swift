import PreludeCore
import PreludeHTTP
import PreludeStore

/// What several admin routes ask of the addressed app's live policy and of a proposed document.
extension AdminAPI {
    /// The live snapshot of the app's environment; 404 for an unknown app or environment, 409 for one whose live revision cannot be served (the
    /// routes that edit part of a policy need one; replacing the whole policy does not).
    func servedPolicy(_ target: PolicyStore.Key) throws -> ServedPolicy {
        let app = target.app
        guard let snapshot = store.snapshot(app: app, environment: target.environment) else {
            if let unavailable = store.unavailability(app: app, environment: target.environment) {
                let path =
                    target.environment == EnvironmentName.production
                    ? "/v1/admin/apps/\(app)/policy" : "/v1/admin/apps/\(app)/environments/\(target.environment)/policy"
                throw ProblemDetails(
                    status: .conflict,
                    detail: "\(target.environment == EnvironmentName.production ? "app" : "environment") "
                        + "\"\(target)\" is not being served (\(unavailable.reason)); replace the whole policy with "
                        + "PUT \(path) and If-Match: *")
            }
            throw try missing(target)
        }
        return snapshot
    }

    /// The live snapshot of the app's environment, nil when it exists but its live revision cannot be served (or it
    /// has none yet); 404 for an unknown app or environment.
    func knownApp(_ target: PolicyStore.Key) throws -> ServedPolicy? {
        let live = store.snapshot(app: target.app, environment: target.environment)
        if live == nil, store.unavailability(app: target.app, environment: target.environment) == nil {
            throw try missing(target)
        }
        return live
    }

    /// `candidate` as a valid document; else 422 listing every problem, the count followed by `consequence`.
    func validatedCandidate(_ candidate: JSONValue, consequence: String) throws -> PolicyDocument {
        try validatedCandidateAndCanonicalJSON(candidate, consequence: consequence).document
    }

    /// ``validatedCandidate(_:consequence:)`` with the document's canonical JSON (`document.jsonValue`), which the
    /// validation built: a write diffs, sizes and stores it without building it again.
    func validatedCandidateAndCanonicalJSON(_ candidate: JSONValue, consequence: String) throws -> (
        document: PolicyDocument, canonical: JSONValue
    ) {
        let validation = PolicyValidator.validate(candidate)
        guard let document = validation.document else {
            let count = validation.problems.count
            throw AdminProblem.invalidPolicy(
                validation.problems, detail: "\(count) problem\(count == 1 ? "" : "s")" + consequence)
        }
        return (document, validation.canonicalJSON ?? document.jsonValue)
    }
}
