import PreludeCore
import PreludeHTTP
import PreludeResultsPage
import PreludeStore

extension AdminAPI {
    /// The rollout routes (docs/rollouts.md, "API"):
    ///
    /// - `POST /v1/admin/apps/{app}/rollouts` (write): create, 201 with the rollout;
    /// - `GET /v1/admin/apps/{app}/rollouts` (read): every rollout of the app, newest first;
    /// - `GET /v1/admin/apps/{app}/rollouts/{id}` (read): state, step, figures and next evaluation in one answer;
    ///   with `Accept: text/html`, the rollout's page (``RolloutPage``);
    /// - `POST /v1/admin/apps/{app}/rollouts/{id}/{start|pause|resume|complete|abort}` (write).
    ///
    /// Rollouts address the app's `production` environment until environments exist.
    func registerRolloutRoutes(on router: inout Router) {
        let base = "/v1/admin/apps/{app}/rollouts"
        let controller = rollouts
        add(&router, .post, base, query: []) { [self] context in
            let app = context.parameter("app")
            _ = try servedPolicy(PolicyStore.Key(app: app))
            let body = try AdminRequestBody.parse(context.request)
            let rollout = try controller.create(
                appID: app, environment: Self.defaultEnvironment, body: body, actor: context.token.name)
            return AdminResponse.json(
                try controller.view(rollout), pretty: context.pretty, status: .created,
                headers: ["Location": "/v1/admin/apps/\(app)/rollouts/\(rollout.id)"])
        }
        add(&router, .get, base, query: []) { [self] context in
            let app = context.parameter("app")
            _ = try knownApp(PolicyStore.Key(app: app))
            let list = try controller.repository.rollouts(appID: app, environment: Self.defaultEnvironment)
            return AdminResponse.json(
                .object(
                    JSONObject([
                        ("app", .string(app)), ("rollouts", .array(try list.map { try controller.view($0) })),
                    ])), pretty: context.pretty)
        }
        add(&router, .get, base + "/{id}", query: []) { [self] context in
            let app = context.parameter("app")
            _ = try knownApp(PolicyStore.Key(app: app))
            let id = try Self.rolloutID(context)
            guard
                let rollout = try controller.repository.rollout(
                    id: id, appID: app, environment: Self.defaultEnvironment)
            else { throw AdminProblem.notFound("app \"\(app)\" has no rollout \(id)") }
            let accept = context.request.headers.values(for: "Accept")
            if AcceptMediaType.prefersHTML(accept.isEmpty ? nil : accept.joined(separator: ",")) {
                return try rolloutPage(rollout)
            }
            return AdminResponse.json(try controller.view(rollout), pretty: context.pretty)
        }
        for operation in RolloutMachine.Operation.allCases {
            add(&router, .post, base + "/{id}/" + operation.rawValue, query: []) { [self] context in
                let app = context.parameter("app")
                _ = try knownApp(PolicyStore.Key(app: app))
                let id = try Self.rolloutID(context)
                let rollout = try controller.operate(
                    operation, id: id, appID: app, environment: Self.defaultEnvironment, actor: context.token.name)
                return AdminResponse.json(try controller.view(rollout), pretty: context.pretty)
            }
        }
    }

    /// The rollout's page (``RolloutPage``): its experiment's results with its steps and guard decisions marked.
    private func rolloutPage(_ rollout: Rollout) throws -> HTTPResponse {
        let results = try resultsReader.results(
            appID: rollout.appID, environment: rollout.environment, experiment: rollout.experimentKey)
        let markers = RolloutPage.markers(
            try AuditLog(database: database).rolloutRecords(
                app: rollout.appID, rollout: rollout.id))
        let input = results.pageInput(markers: markers, note: RolloutPage.summary(rollout))
        return ResultsRoutes.page(ResultsPageRenderer.render(input))
    }

    /// The environment rollouts address until environments exist.
    static let defaultEnvironment = "production"

    private static func rolloutID(_ context: Context) throws(ProblemDetails) -> Int64 {
        let text = context.parameter("id")
        guard let id = Int64(text), id > 0 else {
            throw AdminProblem.notFound("no rollout \"\(text)\": rollout ids are positive integers")
        }
        return id
    }
}
