import PreludeCore
import PreludeHTTP
import PreludeStore

/// The whole-policy endpoints, holding the live policies (what is served) and the policy writer.
struct PolicyRoutes: AdminRouteCollection {
    let store: PolicyStore
    let writer: PolicyWriter

    /// `GET`/`PUT /v1/admin/apps/{app}/policy` and the dry run `POST /v1/admin/apps/{app}/policy/validate`.
    func register(on group: inout AdminRouteGroup) {
        group.addEnvironmental(.get, "/policy", query: []) { [self] context in
            let app = context.parameter("app")
            guard let snapshot = store.snapshot(app: app, environment: context.environment) else {
                // An app whose live revision no longer validates: show what is stored, without an ETag (replace it
                // with If-Match: *).
                let text = try writer.storedLiveDocument(context.target)
                return AdminResponse.json(
                    storedText: text, pretty: context.pretty, headers: ["Prelude-Policy-Status": "unavailable"])
            }
            let headers: HTTPHeaders = ["ETag": snapshot.etag.headerValue, "Cache-Control": "no-store"]
            if let notModified = ConditionalRequest.notModified(context.request, etag: snapshot.etag, headers: headers)
            {
                return notModified
            }
            return AdminResponse.json(
                storedText: String(decoding: snapshot.canonicalBytes, as: UTF8.self), pretty: context.pretty,
                headers: headers)
        }
        group.addEnvironmental(.put, "/policy", query: ["message"]) { [self] context in
            let app = context.parameter("app")
            let ifMatch = try writer.requireIfMatch(context, app: app)
            let candidate = try AdminRequestBody.parse(context.request)
            return try writer.write(candidate, app: app, ifMatch: ifMatch, context: context, action: "policy.replace")
        }
        // A dry run changes nothing, so a read token may use it.
        group.addEnvironmental(.post, "/policy/validate", scope: .read, query: []) { [self] context in
            let app = context.parameter("app")
            try AdminRequestBody.checkMediaType(context.request, accepting: [AdminRequestBody.json])
            let live = try writer.liveJSON(context.target)
            let validation = PolicyValidator.validate(bytes: context.request.body)
            var problems = validation.problems
            if let document = validation.document, document.app.id != app {
                problems.append(
                    ValidationProblem(
                        JSONPointer.root.appending("app", "id"), .invalidValue,
                        "app.id must be \"\(app)\" at this address, not \"\(document.app.id)\"."))
            }
            var result = JSONObject()
            result["app"] = .string(app)
            result["valid"] = .bool(problems.isEmpty)
            result["errors"] = .array(problems.map(\.jsonValue))
            result["lint"] = .array(
                (validation.document.map(PublishChecks.lintCheckers.lint) ?? []).map(\.jsonValue))
            result["liveRevision"] =
                store.snapshot(app: app, environment: context.environment).map { .integer($0.revision) } ?? .null
            // The diff compares canonical forms, so layout and defaults spelled out do not show as changes.
            if let document = validation.document {
                let canonical = validation.canonicalJSON ?? document.jsonValue
                result["diff"] = JSONDiff.jsonValue(JSONDiff.changes(from: live, to: canonical))
            } else if let parsed = try? JSONValue(parsing: context.request.body) {
                result["diff"] = JSONDiff.jsonValue(JSONDiff.changes(from: live, to: parsed))
            } else {
                result["diff"] = .null
            }
            return AdminResponse.json(.object(result), pretty: context.pretty)
        }
    }
}
