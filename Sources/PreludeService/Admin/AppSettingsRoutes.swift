import PreludeCore
import PreludeHTTP
import PreludeStore

/// The app settings endpoint, holding the apps as stored (the summary answered), the live policies, the policy writer
/// (`If-Match`, the lint mode) and the change requests (the settings gate).
struct AppSettingsRoutes: AdminRouteCollection {
    let apps: PolicyRepository
    let store: PolicyStore
    let writer: PolicyWriter
    let changes: ChangeRequests

    /// The app settings that `PATCH /v1/admin/apps/{app}` changes (everything else of an app is its policy).
    private static let appSettings = ["lintStrict"]

    /// `PATCH /v1/admin/apps/{app}` (write scope, If-Match with the policy's ETag, JSON Merge Patch): app settings.
    /// Today one: `lintStrict` of the production environment (other environments: `PATCH
    /// /v1/admin/apps/{app}/environments/{env}`) — when true, a write whose resulting policy has lint errors is refused with 422
    /// (docs/admin.md, "Lint at write time"). Audited as `app.settings` with the old and new values; answers the
    /// app summary and the lint findings of the live policy (what strict mode would refuse now).
    func register(on group: inout AdminRouteGroup) {
        group.add(.patch, "/v1/admin/apps/{app}", query: []) { [self] context in
            let app = context.parameter("app")
            let ifMatch = try writer.requireIfMatch(context, app: app)
            let patch = try AdminRequestBody.parse(
                context.request, accepting: [AdminRequestBody.mergePatch, AdminRequestBody.json])
            let strict = try Self.lintStrictSetting(patch)
            let before = try writer.lintStrict(PolicyStore.Key(app: app))
            if let live = store.snapshot(app: app) {
                guard live.matchesIfMatch(ifMatch) else { throw PolicyStoreProblem.preconditionFailed(current: live) }
            } else if !ETag.parseList(ifMatch).isWildcard {
                // An app whose live revision cannot be served has no current ETag: only `*` matches.
                throw PolicyStoreProblem.preconditionFailed(current: nil)
            }
            if let strict, strict != before {
                // The same gate as the environment's own settings: turning lintStrict off where approvals are
                // required needs `bypass` (or a change request of kind settings).
                do {
                    _ = try changes.updateSettings(
                        app: app, environment: EnvironmentName.production,
                        change: EnvironmentSettings.Change(lintStrict: strict), action: "app.settings",
                        authority: AdminAPI.mayBypass(context.token) ? .bypass : .writer, by: AdminAPI.actor(context))
                } catch PolicyRepository.Refusal.unknownApp {
                    throw PolicyStoreProblem.unknownApp(app)
                }
                context.logger.info(
                    "app settings changed", ["app": app, "lintStrict": "\(strict)", "by": context.token.name])
            }
            var body = try AppRoutes.summary(app, apps: apps, store: store).objectValue ?? JSONObject()
            body["changed"] = .bool(strict.map { $0 != before } ?? false)
            body["lint"] = .array(
                (store.snapshot(app: app).map { PublishChecks.lintCheckers.lint($0.document) } ?? []).map(\.jsonValue))
            var headers = HTTPHeaders()
            if let snapshot = store.snapshot(app: app) { headers.set("ETag", snapshot.etag.headerValue) }
            return AdminResponse.json(.object(body), pretty: context.pretty, headers: headers)
        }
    }

    /// The `lintStrict` member of a settings patch (nil when absent); 422 with the pointer for anything else.
    private static func lintStrictSetting(_ patch: JSONValue) throws(ProblemDetails) -> Bool? {
        guard case .object(let object) = patch else {
            throw AdminProblem.invalidRequest(
                "the body must be a JSON object of app settings (\(appSettings.joined(separator: ", ")))",
                pointer: "", code: "type.mismatch", status: .unprocessableContent)
        }
        var problems: [FieldProblem] = []
        var strict: Bool?
        for (key, value) in object.members {
            if key == "lintStrict" {
                if case .bool(let flag) = value {
                    strict = flag
                } else {
                    problems.append(
                        FieldProblem(
                            pointer: "/lintStrict", code: "type.mismatch", detail: "lintStrict is true or false"))
                }
            } else {
                problems.append(
                    FieldProblem(
                        pointer: JSONPointer.root.appending(key).description, code: "member.unknown",
                        detail: "'\(key)' is not an app setting; settings: \(appSettings.joined(separator: ", "))"))
            }
        }
        guard problems.isEmpty else {
            throw ProblemDetails(
                status: .unprocessableContent, type: RequestProblem.invalidRequestType,
                title: "The request is not valid",
                detail: problems.map(\.detail).joined(separator: "; ") + "; nothing was changed", errors: problems)
        }
        return strict
    }
}
