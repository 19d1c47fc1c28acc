import PreludeCore
import PreludeHTTP
import PreludeResultsPage
import PreludeStore

/// The rollout endpoints, holding the rollout controller, the policy writer (the app and environment looked up),
/// the change requests (a plan that needs approval), and for the rollout's page the results reader and the audit
/// log.
struct RolloutRoutes: AdminRouteCollection {
    let rollouts: RolloutController
    let writer: PolicyWriter
    let changes: ChangeRequests
    let resultsReader: ExperimentResultsReader
    let audit: AuditLog

    /// The rollout routes (docs/rollouts.md, "API"), for the app's production environment under
    /// `/v1/admin/apps/{app}` and for any environment under `/v1/admin/apps/{app}/environments/{env}`:
    ///
    /// - `POST …/rollouts` (write): create, 201 with the rollout; on an environment that requires approvals a
    ///   `start` without the `bypass` capability leaves it a draft and opens a change request carrying its plan
    ///   (202 with the rollout and `changeRequest`);
    /// - `GET …/rollouts` (read): every rollout of the environment, newest first;
    /// - `GET …/rollouts/{id}` (read): state, step, figures and next evaluation in one answer;
    ///   with `Accept: text/html`, the rollout's page (``RolloutPage``);
    /// - `POST …/rollouts/{id}/{start|pause|resume|complete|abort}` (write).
    ///
    /// A rollout ramps its environment's policy and is guarded by that environment's events only; at most one is
    /// live per app and environment. A rollout of another environment is not found (404) under this one.
    func register(on group: inout AdminRouteGroup) {
        group.addEnvironmental(.post, "/rollouts", query: []) { [self] context in
            let target = context.target
            _ = try writer.servedPolicy(target)
            let body = try AdminRequestBody.parse(context.request)
            let created = try rollouts.create(
                appID: target.app, environment: target.environment, body: body, actor: context.token.name,
                authority: AdminAPI.mayBypass(context.token) ? .bypass : .writer)
            let rollout = created.rollout
            // The creation answer carries the plan's time to detection (docs/rollouts.md, "Time to detection").
            let forecast = try rollouts.forecast(
                appID: target.app, environment: target.environment, feature: rollout.feature, plan: rollout.plan,
                audience: rollout.audience)
            let location =
                context.request.pathParameter("env") == nil
                ? "/v1/admin/apps/\(target.app)/rollouts/\(rollout.id)"
                : "/v1/admin/apps/\(target.app)/environments/\(target.environment)/rollouts/\(rollout.id)"
            guard created.awaitsApproval else {
                var object = try rollouts.view(rollout).objectValue ?? JSONObject()
                object["forecast"] = forecast
                return AdminResponse.json(
                    .object(object), pretty: context.pretty, status: .created, headers: ["Location": location])
            }
            // The environment requires approvals: the rollout stays a draft and its plan goes to review as a
            // change request; applying that request once approved starts it (docs/rollouts.md, "Approval").
            let request = try changes.proposeRollout(
                app: target.app, environment: target.environment, rollout: rollout.id, message: nil, submit: true,
                by: AdminAPI.actor(context))
            var object = try rollouts.view(rollout).objectValue ?? JSONObject()
            object["forecast"] = forecast
            let requestPath =
                "/v1/admin/apps/\(target.app)/environments/\(target.environment)/change-requests/\(request.id)"
            object["changeRequest"] = [
                "id": .integer(Int(request.id)), "state": .string(request.state.rawValue),
                "location": .string(requestPath),
            ]
            return AdminResponse.json(
                .object(object), pretty: context.pretty, status: .accepted,
                headers: ["Location": location, "Link": "<\(requestPath)>; rel=\"approval\""])
        }
        // Time to detection before a rollout starts: the plan against the app's own recent traffic and rates.
        group.addEnvironmental(.post, "/rollouts/simulate", query: []) { [self] context in
            let target = context.target
            let served = try writer.servedPolicy(target)
            let request = try RolloutRequest(try AdminRequestBody.parse(context.request), simulate: true)
            if let audience = request.audience {
                try RolloutController.checkAudience(audience, in: served.document)
            }
            let forecast = try rollouts.forecast(
                appID: target.app, environment: target.environment, feature: request.feature, plan: request.plan,
                audience: request.audience, override: request.baseline)
            return AdminResponse.json(forecast, pretty: context.pretty)
        }
        registerRolloutReads(on: &group)
    }

    /// `GET …/rollouts`, `GET …/rollouts/{id}` and the operator's actions on one rollout.
    private func registerRolloutReads(on group: inout AdminRouteGroup) {
        group.addEnvironmental(.get, "/rollouts", query: []) { [self] context in
            let target = context.target
            _ = try writer.knownApp(target)
            let list = try rollouts.repository.rollouts(appID: target.app, environment: target.environment)
            return AdminResponse.json(
                .object(
                    JSONObject([
                        ("app", .string(target.app)), ("environment", .string(target.environment)),
                        ("rollouts", .array(try list.map { try rollouts.view($0) })),
                    ])), pretty: context.pretty)
        }
        group.addEnvironmental(.get, "/rollouts/{id}", query: []) { [self] context in
            let target = context.target
            _ = try writer.knownApp(target)
            let id = try Self.rolloutID(context)
            guard
                let rollout = try rollouts.repository.rollout(
                    id: id, appID: target.app, environment: target.environment)
            else {
                throw AdminProblem.notFound(
                    "app \"\(target.app)\" has no rollout \(id) in environment \"\(target.environment)\"")
            }
            let accept = context.request.headers.values(for: "Accept")
            if AcceptMediaType.prefersHTML(accept.isEmpty ? nil : accept.joined(separator: ",")) {
                return try rolloutPage(rollout)
            }
            return AdminResponse.json(try rollouts.view(rollout), pretty: context.pretty)
        }
        for operation in RolloutMachine.Operation.allCases {
            group.addEnvironmental(.post, "/rollouts/{id}/" + operation.rawValue, query: []) { [self] context in
                let target = context.target
                _ = try writer.knownApp(target)
                let id = try Self.rolloutID(context)
                let open =
                    operation == .start || operation == .abort
                    ? try changes.openRolloutRequest(app: target.app, environment: target.environment, rollout: id)
                    : nil
                let rollout = try rollouts.operate(
                    operation, id: id, appID: target.app, environment: target.environment, actor: context.token.name,
                    authority: AdminAPI.mayBypass(context.token) ? .bypass : .writer, openChangeRequest: open)
                // A plan waiting for approval has nothing left to approve once the draft is started (bypass) or
                // aborted: its request is cancelled, so it cannot be applied later.
                if let open {
                    let record = try changes.record(
                        app: target.app, environment: target.environment, id: String(open))
                    _ = try changes.cancel(
                        record, reason: "rollout \(id) was \(operation == .start ? "started" : "aborted") directly",
                        by: AdminAPI.actor(context))
                }
                return AdminResponse.json(try rollouts.view(rollout), pretty: context.pretty)
            }
        }
    }

    /// The rollout's page (``RolloutPage``): its experiment's results with its steps and guard decisions marked.
    private func rolloutPage(_ rollout: Rollout) throws -> HTTPResponse {
        // The rollout's own analysis settings, so page and guard read the same α and minimum effect.
        let results = try resultsReader.results(
            appID: rollout.appID, environment: rollout.environment, experiment: rollout.experimentKey,
            minimumEffect: rollout.plan.minimumEffect, alpha: rollout.plan.alpha)
        let records = try audit.rolloutRecords(app: rollout.appID, rollout: rollout.id)
        let markers = RolloutPage.markers(records)
        var input = results.pageInput(markers: markers, note: RolloutPage.summary(rollout))
        let observation = try rollouts.repository.observation(of: rollout)
        let reading = RolloutGuard.read(
            observation, plan: rollout.plan, excluded: Set(rollout.state.excludedSegments))
        input.rollout = RolloutPage.panel(rollout, reading: reading, records: records)
        return ResultsRoutes.page(ResultsPageRenderer.render(input))
    }

    private static func rolloutID(_ context: Context) throws(ProblemDetails) -> Int64 {
        let text = context.parameter("id")
        guard let id = Int64(text), id > 0 else {
            throw AdminProblem.notFound("no rollout \"\(text)\": rollout ids are positive integers")
        }
        return id
    }
}
