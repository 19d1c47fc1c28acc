import PreludeCore
import PreludeHTTP
import PreludeStore

/// The app endpoints, holding the apps as stored, the live policies (an app's ETag, its creation and deletion) and the
/// policy writer (`If-Match`, a write's answer).
struct AppRoutes: AdminRouteCollection {
    let apps: PolicyRepository
    let store: PolicyStore
    let writer: PolicyWriter

    /// `GET /v1/admin/apps`, `POST /v1/admin/apps`, `GET`/`DELETE /v1/admin/apps/{app}`.
    func register(on group: inout AdminRouteGroup) {
        group.add(.get, "/v1/admin/apps", query: []) { [self] context in
            let grant = context.token.grant
            let rows = try apps.appIDs().filter { grant.covers(app: $0) }
            return AdminResponse.json(
                ["apps": .array(try rows.map { try appListEntry($0, grant: grant) })], pretty: context.pretty)
        }
        group.add(.get, "/v1/admin/apps/{app}", query: []) { [self] context in
            let app = context.parameter("app")
            let summary = try appSummary(app)  // first: it loads a revision another process committed
            var headers = HTTPHeaders()
            if let snapshot = store.snapshot(app: app) { headers.set("ETag", snapshot.etag.headerValue) }
            return AdminResponse.json(summary, pretty: context.pretty, headers: headers)
        }
        group.add(.post, "/v1/admin/apps", query: ["message"]) { [self] context in
            let body = try AdminRequestBody.parse(context.request)
            let validation = PolicyValidator.validate(body)
            guard let document = validation.document else { throw AdminProblem.invalidPolicy(validation.problems) }
            let app = document.app.id
            let message = try AdminAPI.message(context.request)
            var detail = JSONObject()
            detail["features"] = .array(document.orderedFeatures.map { .string($0.feature.rawValue) })
            if let message { detail["message"] = .string(message) }
            let snapshot = try store.createApp(
                app: app, document: document, author: context.token.name, message: message, auditDetail: .object(detail)
            )
            context.logger.info("app created", ["app": app, "by": context.token.name])
            var response = writer.writeResponse(
                snapshot, changes: [], changed: true, lint: PublishChecks.lintCheckers.lint(document),
                pretty: context.pretty,
                status: .created)
            response.headers.set("Location", "/v1/admin/apps/\(app)/policy")
            return response
        }
        group.add(.delete, "/v1/admin/apps/{app}", query: []) { [self] context in
            let app = context.parameter("app")
            let ifMatch = try writer.requireIfMatch(context, app: app)
            // Revision numbers are unique per app and contiguous: every environment's revisions.
            let revisions = try apps.nextRevisionNumber(app: app) - 1
            let live = store.snapshot(app: app)
            try store.deleteApp(
                app: app, author: context.token.name, precondition: RevisionPrecondition(ifMatch: ifMatch),
                auditDetail: [
                    "revisionCount": .integer(Int(revisions)),
                    "liveETag": live.map { .string($0.etag.headerValue) } ?? .null,
                ])
            context.logger.info("app deleted", ["app": app, "by": context.token.name])
            return AdminResponse.json(
                ["app": .string(app), "deleted": .bool(true), "revisionCount": .integer(Int(revisions))],
                pretty: context.pretty)
        }
    }

    /// The members of production's live policy in an app's summary: what a token not granted production must not
    /// read in the app list.
    private static let productionMembers = [
        "liveRevision", "etag", "status", "reason", "storedFindings", "fallbacks", "features", "revisionCount",
    ]

    /// An app of `GET /v1/admin/apps` as `grant` may see it: the summary, without production's members when the grant
    /// does not cover production, and `environments`, the app's environments the grant covers (`name`,
    /// `liveRevision`, `etag`), never one outside it.
    private func appListEntry(_ app: String, grant: TokenGrant) throws -> JSONValue {
        guard var object = try appSummary(app).objectValue else { return .null }
        if !grant.covers(app: app, environment: EnvironmentName.production) {
            for member in Self.productionMembers { object[member] = nil }
        }
        let covered = (try apps.environments(app: app) ?? []).filter { grant.covers(app: app, environment: $0.name) }
        object["environments"] = .array(
            covered.map { settings in
                let live = store.snapshot(app: app, environment: settings.name)
                return [
                    "name": .string(settings.name),
                    "liveRevision": (live?.revision ?? settings.liveRevision).map { .integer($0) } ?? .null,
                    "etag": live.map { .string($0.etag.headerValue) } ?? .null,
                ]
            })
        return .object(object)
    }

    /// `{"id", "name", "liveRevision", "etag", "status", "features", "revisionCount", "lintStrict", "createdAt",
    /// "updatedAt"}`, plus `storedFindings` and `fallbacks` when the live revision breaks rules added after it was
    /// written (``StoredPolicyReader``).
    private func appSummary(_ app: String) throws -> JSONValue { try Self.summary(app, apps: apps, store: store) }

    /// ``appSummary(_:)`` for a route that holds `apps` and `store` (the app settings).
    static func summary(_ app: String, apps: PolicyRepository, store: PolicyStore) throws -> JSONValue {
        guard let record = try apps.app(app) else { throw PolicyStoreProblem.unknownApp(app) }
        var snapshot = store.snapshot(app: app)
        if let served = snapshot?.revision, served != record.liveRevision {
            // Another process (`prelude policy import`) committed a revision the reloader has not swapped in yet:
            // load it now, so the revision and the ETag answered are the same one's.
            try store.refreshChanged()
            snapshot = store.snapshot(app: app)
        }
        var object = JSONObject()
        object["id"] = .string(app)
        object["name"] = .string(record.name)
        object["liveRevision"] = (snapshot?.revision ?? record.liveRevision).map { .integer($0) } ?? .null
        object["etag"] = snapshot.map { .string($0.etag.headerValue) } ?? .null
        object["status"] = .string(snapshot != nil ? "served" : "unavailable")
        if snapshot == nil, let reason = store.unavailability(app: app)?.reason { object["reason"] = .string(reason) }
        if let snapshot, !snapshot.storedFindings.isEmpty {
            // A revision an earlier build accepted that breaks rules added since (docs/policy.md).
            object["storedFindings"] = .array(snapshot.storedFindings.map(\.jsonValue))
            object["fallbacks"] = .array(snapshot.fallbacks.map { .string($0.description) })
        }
        object["features"] = .array((snapshot?.document.orderedFeatures ?? []).map { .string($0.feature.rawValue) })
        object["revisionCount"] = .integer(record.revisionCount)
        object["lintStrict"] = .bool(record.lintStrict)
        object["createdAt"] = .string(AdminTime.iso8601(record.createdAt))
        object["updatedAt"] = .string(AdminTime.iso8601(record.updatedAt))
        return .object(object)
    }
}
