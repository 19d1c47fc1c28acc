import PreludeCore
import PreludeHTTP
import PreludeStore

/// The rollout template endpoints, holding the rollout controller (its templates and its clock) and the policy writer
/// (the app and environment looked up).
struct RolloutTemplateRoutes: AdminRouteCollection {
    let rollouts: RolloutController
    let writer: PolicyWriter

    /// The rollout template routes (docs/rollouts.md, "Templates"), per environment:
    ///
    /// - `GET …/rollout-templates` (read): the environment's templates;
    /// - `PUT …/rollout-templates/{name}` (write): create or replace one (a partial plan; `floor` is the
    ///   environment's floor), 422 naming each bad member;
    /// - `DELETE …/rollout-templates/{name}` (write): 204, 404 when there is none.
    func register(on group: inout AdminRouteGroup) {
        let repository = rollouts.templates
        group.addEnvironmental(.get, "/rollout-templates", query: []) { [self] context in
            let target = context.target
            _ = try writer.knownApp(target)
            let list = try repository.templates(appID: target.app, environment: target.environment)
            return AdminResponse.json(
                .object(
                    JSONObject([
                        ("app", .string(target.app)), ("environment", .string(target.environment)),
                        ("templates", .array(list.map(Self.templateJSON))),
                    ])), pretty: context.pretty)
        }
        group.addEnvironmental(.put, "/rollout-templates/{name}", query: []) { [self] context in
            let target = context.target
            _ = try writer.servedPolicy(target)
            let name = try Self.templateName(context)
            let body = try AdminRequestBody.parse(context.request)
            let problems = RolloutTemplate.problems(body, name: name)
            guard problems.isEmpty else {
                throw ProblemDetails(
                    status: .unprocessableContent, type: RequestProblem.validationType,
                    title: "The rollout template is not valid",
                    detail: "\(problems.count) problem\(problems.count == 1 ? "" : "s"); nothing was changed",
                    errors: problems.map {
                        FieldProblem(pointer: "/" + $0.member, code: "value.invalid", detail: $0.message)
                    })
            }
            let now = rollouts.clockNow
            try repository.save(
                appID: target.app, environment: target.environment, name: name, plan: body, by: context.token.name,
                at: now)
            return AdminResponse.json(
                Self.templateJSON(
                    .init(name: name, plan: body, updatedBy: context.token.name, updatedAt: now)),
                pretty: context.pretty)
        }
        group.addEnvironmental(.delete, "/rollout-templates/{name}", query: []) { [self] context in
            let target = context.target
            _ = try writer.knownApp(target)
            let name = try Self.templateName(context)
            guard
                try repository.delete(
                    appID: target.app, environment: target.environment, name: name, by: context.token.name,
                    at: rollouts.clockNow)
            else {
                throw AdminProblem.notFound(
                    "environment \"\(target.environment)\" of app \"\(target.app)\" has no rollout template \"\(name)\""
                )
            }
            return HTTPResponse(status: .noContent)
        }
    }

    private static func templateJSON(_ template: RolloutTemplateRepository.Template) -> JSONValue {
        .object(
            JSONObject([
                ("name", .string(template.name)), ("plan", template.plan),
                ("floor", .bool(template.name == RolloutTemplate.floorName)),
                ("updatedBy", .string(template.updatedBy)), ("updatedAt", AdminTime.json(template.updatedAt)),
            ]))
    }

    /// A template name: 1 to 64 of `A–Z a–z 0–9 - _`.
    private static func templateName(_ context: Context) throws(ProblemDetails) -> String {
        let name = context.parameter("name")
        guard (1...64).contains(name.utf8.count),
            name.utf8.allSatisfy({
                ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || $0 == 0x2D || $0 == 0x5F
            })
        else {
            throw AdminProblem.invalidRequest(
                "a template name is 1 to 64 letters, digits, - or _", pointer: "", code: "template.name",
                status: .unprocessableContent)
        }
        return name
    }
}
