import PreludeCore
import PreludeHTTP
import PreludeStore

#if canImport(FoundationEssentials)
    import Dispatch
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

extension AdminAPI {
    /// `GET`/`PUT /v1/admin/apps/{app}/policy` and the dry run `POST /v1/admin/apps/{app}/policy/validate`.
    func registerPolicyRoutes(on group: inout AdminRouteGroup) {
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

    /// 400 when `If-Match` is neither `*` nor a list of quoted entity tags (RFC 9110 §8.8.3: `"…"` or `W/"…"`):
    /// an unquoted tag would otherwise never match and be reported as stale.
    static func checkEntityTags(_ value: String) throws(ProblemDetails) {
        let entries = value.split(separator: ",").map { $0.trimmingWhitespace() }
        let quoted = entries.allSatisfy { entry in
            let tag = entry.hasPrefix("W/") ? entry.dropFirst(2) : Substring(entry)
            return tag.count >= 2 && tag.first == "\"" && tag.last == "\"" && !tag.dropFirst().dropLast().contains("\"")
        }
        guard value.trimmingWhitespace() == "*" || (!entries.isEmpty && quoted) else {
            throw AdminProblem.invalidRequest(
                "If-Match must be * or the ETag in double quotes, exactly as the ETag header gives it "
                    + "(If-Match: \"…\"), not \(value); nothing was changed",
                pointer: "/headers/If-Match", code: "header.invalid")
        }
    }

    /// The optional `?message=` describing a change (at most 500 characters), stored on the revision.
    static func message(_ request: HTTPRequest) throws(ProblemDetails) -> String? {
        guard let message = request.queryValue("message"), !message.isEmpty else { return nil }
        guard message.count <= 500 else {
            throw AdminProblem.invalidRequest("query parameter 'message' is longer than 500 characters")
        }
        // The message is stored in the audit log and shown to people: no control characters or noncharacters.
        if let problem = StoredText.problem(in: message, subject: "The query parameter 'message'") {
            throw AdminProblem.invalidRequest(problem, pointer: "/query/message", code: "text.forbiddenCharacter")
        }
        return message
    }
}
