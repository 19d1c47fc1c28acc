import PreludeCore
import PreludeHTTP
import PreludeStore

/// The revision history endpoints, holding the apps and revisions as stored, the live policies (which revision is
/// live) and the policy writer (a rollback's write).
struct RevisionRoutes: AdminRouteCollection {
    let apps: PolicyRepository
    let store: PolicyStore
    let writer: PolicyWriter

    /// Revision history: list (paged, newest first), show, diff, roll back.
    func register(on group: inout AdminRouteGroup) {
        group.addEnvironmental(.get, "/revisions", query: ["limit", "cursor"]) { [self] context in
            let app = context.parameter("app")
            let limit = try AdminAPI.integerQuery(context.request, "limit", default: 20, range: 1...200)
            let before = try AdminAPI.cursor(context.request)
            let live = store.snapshot(app: app, environment: context.environment)?.revision
            guard
                let rows = try apps.revisions(
                    app: app, environment: context.environment, before: before, limit: limit + 1)
            else { throw try writer.missing(context.target) }
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
                [
                    "app": .string(app), "environment": .string(context.environment), "revisions": .array(page),
                    "nextCursor": next,
                ], pretty: context.pretty)
        }
        group.addEnvironmental(.get, "/revisions/{number}", query: []) { [self] context in
            let app = context.parameter("app")
            let number = try AdminAPI.revisionNumber(context.parameter("number"))
            let row = try revisionRow(context.target, number: number)
            var object = JSONObject()
            object["app"] = .string(app)
            object["environment"] = .string(context.environment)
            object["number"] = .integer(number)
            object["createdAt"] = .string(AdminTime.iso8601(row.createdAt))
            object["author"] = .string(row.author)
            object["message"] = row.message.map(JSONValue.string) ?? .null
            object["live"] = .bool(store.snapshot(app: app, environment: context.environment)?.revision == number)
            object["document"] = try JSONValue(parsing: row.document)
            return AdminResponse.json(.object(object), pretty: context.pretty)
        }
        group.addEnvironmental(.get, "/revisions/{from}/diff/{to}", query: []) { [self] context in
            try diffResponse(context, from: context.parameter("from"), to: context.parameter("to"))
        }
        group.addEnvironmental(.get, "/revisions/{from}/diff", query: ["against"]) { [self] context in
            try diffResponse(
                context, from: context.parameter("from"), to: context.request.queryValue("against") ?? "live")
        }
        group.addEnvironmental(.post, "/revisions/{number}/rollback", query: ["message"]) { [self] context in
            let app = context.parameter("app")
            let ifMatch = try writer.requireIfMatch(context, app: app)
            let number = try AdminAPI.revisionNumber(context.parameter("number"))
            let text = try revisionRow(context.target, number: number).document
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
            return try writer.write(
                target, app: app, ifMatch: ifMatch, context: context, action: "policy.rollback",
                extraDetail: JSONObject([
                    ("rollbackTo", .integer(number)),
                    (
                        "from",
                        store.snapshot(app: app, environment: context.environment).map { .integer($0.revision) }
                            ?? .null
                    ),
                ]), events: [.revisionRolledBack])
        }
    }

    private func diffResponse(_ context: Context, from: String, to: String) throws -> HTTPResponse {
        let app = context.parameter("app")
        let old = try revisionDocument(context.target, reference: from)
        let new = try revisionDocument(context.target, reference: to)
        let changes = JSONDiff.changes(from: old.document, to: new.document)
        return AdminResponse.json(
            [
                "app": .string(app), "environment": .string(context.environment), "from": .integer(old.number),
                "to": .integer(new.number),
                "changes": JSONDiff.jsonValue(changes),
            ], pretty: context.pretty)
    }

    /// A revision's document by number or `live`, canonicalised when it validates (so layout differences do not
    /// show in diffs).
    private func revisionDocument(_ target: PolicyStore.Key, reference: String) throws -> (
        number: Int, document: JSONValue
    ) {
        try Self.document(target, reference: reference, apps: apps, writer: writer)
    }

    /// ``revisionDocument(_:reference:)`` for a route that holds `apps` and `writer` (a promotion's source).
    static func document(_ target: PolicyStore.Key, reference: String, apps: PolicyRepository, writer: PolicyWriter)
        throws -> (number: Int, document: JSONValue)
    {
        let number: Int
        if reference == "live" {
            guard let live = try apps.liveRevision(app: target.app, environment: target.environment) ?? nil else {
                throw try writer.missing(target)
            }
            number = live
        } else {
            number = try AdminAPI.revisionNumber(reference)
        }
        let json = try JSONValue(parsing: try row(target, number: number, apps: apps, writer: writer).document)
        return (number, PolicyValidator.validate(json).document?.jsonValue ?? json)
    }

    private func revisionRow(_ target: PolicyStore.Key, number: Int) throws -> PolicyRepository.Revision {
        try Self.row(target, number: number, apps: apps, writer: writer)
    }

    /// Revision `number` of `target` as stored; 404 for an unknown app, environment or revision.
    private static func row(_ target: PolicyStore.Key, number: Int, apps: PolicyRepository, writer: PolicyWriter)
        throws -> PolicyRepository.Revision
    {
        guard let found = try apps.revision(app: target.app, environment: target.environment, number: number) else {
            throw try writer.missing(target)
        }
        guard let found else { throw AdminAPI.unknownRevision(target, number) }
        return found
    }
}
