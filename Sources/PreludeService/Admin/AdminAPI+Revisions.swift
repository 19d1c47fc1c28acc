import PreludeCore
import PreludeHTTP
import PreludeStore

extension AdminAPI {
    /// Revision history: list (paged, newest first), show, diff, roll back.
    func registerRevisionRoutes(on router: inout Router) {
        add(&router, .get, "/v1/admin/apps/{app}/revisions", query: ["limit", "cursor"]) { [self] context in
            let app = context.parameter("app")
            let limit = try Self.integerQuery(context.request, "limit", default: 20, range: 1...200)
            let before = try Self.cursor(context.request)
            let live = store.snapshot(app: app)?.revision
            guard let rows = try apps.revisions(app: app, before: before, limit: limit + 1) else {
                throw PolicyStoreProblem.unknownApp(app)
            }
            let page = rows.prefix(limit).map { revision -> JSONValue in
                [
                    "number": .integer(revision.number),
                    "createdAt": .string(AdminTime.iso8601(revision.createdAt)),
                    "author": .string(revision.author),
                    "message": revision.message.map(JSONValue.string) ?? .null,
                    "live": .bool(live == revision.number), "size": .integer(revision.size),
                ]
            }
            let next: JSONValue = rows.count > limit ? page.last?["number"].map { .string("\($0)") } ?? .null : .null
            return AdminResponse.json(
                ["app": .string(app), "revisions": .array(page), "nextCursor": next], pretty: context.pretty)
        }
        add(&router, .get, "/v1/admin/apps/{app}/revisions/{number}", query: []) { [self] context in
            let app = context.parameter("app")
            let number = try Self.revisionNumber(context.parameter("number"))
            let row = try revisionRow(app: app, number: number)
            var object = JSONObject()
            object["app"] = .string(app)
            object["number"] = .integer(number)
            object["createdAt"] = .string(AdminTime.iso8601(row.createdAt))
            object["author"] = .string(row.author)
            object["message"] = row.message.map(JSONValue.string) ?? .null
            object["live"] = .bool(store.snapshot(app: app)?.revision == number)
            object["document"] = try JSONValue(parsing: row.document)
            return AdminResponse.json(.object(object), pretty: context.pretty)
        }
        add(&router, .get, "/v1/admin/apps/{app}/revisions/{from}/diff/{to}", query: []) { [self] context in
            try diffResponse(context, from: context.parameter("from"), to: context.parameter("to"))
        }
        add(&router, .get, "/v1/admin/apps/{app}/revisions/{from}/diff", query: ["against"]) { [self] context in
            try diffResponse(
                context, from: context.parameter("from"), to: context.request.queryValue("against") ?? "live")
        }
        add(&router, .post, "/v1/admin/apps/{app}/revisions/{number}/rollback", query: ["message"]) { [self] context in
            let app = context.parameter("app")
            let ifMatch = try requireIfMatch(context, app: app)
            let number = try Self.revisionNumber(context.parameter("number"))
            let text = try revisionRow(app: app, number: number).document
            let target = try JSONValue(parsing: text)
            let problems = PolicyValidator.validate(target).problems
            guard problems.isEmpty else {
                throw ProblemDetails(
                    status: .unprocessableContent, type: PolicyStoreProblem.invalidRevision,
                    detail: "revision \(number) does not validate with this version of the service; "
                        + "fix it and PUT it as a new revision",
                    errors: problems.map {
                        FieldProblem(pointer: $0.pointer.description, code: $0.code.rawValue, detail: $0.message)
                    })
            }
            // A rollback is a new revision equal to the old one: the same write path, audited with the diff.
            return try write(
                target, app: app, ifMatch: ifMatch, context: context, action: "policy.rollback",
                extraDetail: JSONObject([
                    ("rollbackTo", .integer(number)),
                    ("from", store.snapshot(app: app).map { .integer($0.revision) } ?? .null),
                ]), events: [.revisionRolledBack])
        }
    }

    private func diffResponse(_ context: Context, from: String, to: String) throws -> HTTPResponse {
        let app = context.parameter("app")
        let old = try revisionDocument(app: app, reference: from)
        let new = try revisionDocument(app: app, reference: to)
        let changes = JSONDiff.changes(from: old.document, to: new.document)
        return AdminResponse.json(
            [
                "app": .string(app), "from": .integer(old.number), "to": .integer(new.number),
                "changes": JSONDiff.jsonValue(changes),
            ], pretty: context.pretty)
    }

    /// A revision's document by number or `live`, canonicalised when it validates (so layout differences do not
    /// show in diffs).
    private func revisionDocument(app: String, reference: String) throws -> (number: Int, document: JSONValue) {
        let number: Int
        if reference == "live" {
            guard let live = try apps.liveRevision(app: app) ?? nil else { throw PolicyStoreProblem.unknownApp(app) }
            number = live
        } else {
            number = try Self.revisionNumber(reference)
        }
        let json = try JSONValue(parsing: try revisionRow(app: app, number: number).document)
        return (number, PolicyValidator.validate(json).document?.jsonValue ?? json)
    }

    private func revisionRow(app: String, number: Int) throws -> PolicyRepository.Revision {
        guard let found = try apps.revision(app: app, number: number) else { throw PolicyStoreProblem.unknownApp(app) }
        guard let found else {
            throw ProblemDetails(
                status: .notFound, type: PolicyStoreProblem.unknownRevision,
                detail: "app \"\(app)\" has no revision \(number)")
        }
        return found
    }

    static func revisionNumber(_ text: String) throws(ProblemDetails) -> Int {
        guard let number = Int(text), number >= 1 else {
            throw AdminProblem.invalidRequest(
                "a revision number is a positive integer (or 'live' in a diff), not '\(text)'")
        }
        return number
    }

    /// `?cursor=` from a previous page's `nextCursor`: an opaque positive integer.
    static func cursor(_ request: HTTPRequest) throws(ProblemDetails) -> Int64? {
        guard let text = request.queryValue("cursor") else { return nil }
        guard let value = Int64(text), value >= 1 else {
            throw AdminProblem.invalidRequest("'cursor' must be a nextCursor value from a previous page, not '\(text)'")
        }
        return value
    }
}
