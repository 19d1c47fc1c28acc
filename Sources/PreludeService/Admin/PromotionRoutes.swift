import PreludeCore
import PreludeHTTP
import PreludeStore

/// The promotion endpoint, holding the apps as stored (the source revision), the policy writer (the one publish path)
/// and the change requests (what an environment that requires approvals gets instead).
struct PromotionRoutes: AdminRouteCollection {
    let apps: PolicyRepository
    let writer: PolicyWriter
    let changes: ChangeRequests

    /// The parts of a policy a promotion can copy alone (docs/change-management.md, "Promotion").
    static let promotionParts = ["copy", "cadence", "experiments"]

    /// `POST /v1/admin/apps/{app}/environments/{env}/promotions` (write scope; `If-Match` with the target
    /// environment's live ETag, `*` for an empty one): copies a revision of another environment — whole, or chosen
    /// features, or chosen parts of them — into `{env}` as a change there, and answers the JSON diff against the
    /// target's live revision (the body of a policy write, plus `from`, `sourceRevision`, `features` and `parts`).
    ///
    /// ```json
    /// {"from": "staging", "revision": 12, "features": ["camera"], "parts": ["copy"], "message": "new camera copy"}
    /// ```
    /// Only `from` is required: without `revision` the source's live revision is promoted, without `features` every
    /// feature, without `parts` everything (the whole document when neither `features` nor `parts` is given).
    func register(on group: inout AdminRouteGroup) {
        group.add(
            .post, "/v1/admin/apps/{app}/environments/{env}/promotions", query: [], maxBodySize: 4096
        ) { [self] context in
            let target = context.target
            let ifMatch = try writer.requireIfMatch(context, app: target.app)
            let request = try Self.promotionRequest(try AdminRequestBody.parse(context.request))
            try AdminAPI.checkGrant(context.token, app: target.app, environment: request.from)
            guard request.from != target.environment else {
                throw AdminProblem.invalidRequest(
                    "'from' names the environment promoted into; promote from another one", pointer: "/from",
                    code: "value.invalid", status: .unprocessableContent)
            }
            let source = PolicyStore.Key(app: target.app, environment: request.from)
            _ = try EnvironmentRoutes.settings(source, apps: apps, writer: writer)
            let sourceDocument = try RevisionRoutes.document(
                source, reference: request.revision.map(String.init) ?? "live", apps: apps, writer: writer)
            let proposed = try Self.promoted(
                sourceDocument.document, into: try writer.liveJSON(target), request: request)
            var detail = JSONObject([
                ("from", .string(request.from)), ("sourceRevision", .integer(sourceDocument.number)),
            ])
            if let features = request.features { detail["features"] = .array(features.map(JSONValue.string)) }
            if let parts = request.parts { detail["parts"] = .array(parts.map(JSONValue.string)) }
            let proposal = Proposal(
                target: target, document: proposed, ifMatch: ifMatch, action: "promotion", message: request.message,
                detail: detail)
            let response = try publish(proposal, context: context)
            context.logger.info(
                "promotion",
                [
                    "app": target.app, "from": request.from, "to": target.environment, "by": context.token.name,
                ], numbers: ["sourceRevision": Double(sourceDocument.number)])
            return response
        }
    }

    /// A change proposed to one environment: what a promotion (and, later, other composite changes) hands to
    /// ``publish(_:context:)``.
    private struct Proposal {
        /// The environment changed.
        var target: PolicyStore.Key
        /// The whole proposed document.
        var document: JSONValue
        /// The request's `If-Match` (the target's live ETag it was based on).
        var ifMatch: String
        /// The audit action.
        var action: String
        /// The revision message.
        var message: String?
        /// Extra audit detail.
        var detail: JSONObject
    }

    /// Publishes `proposal` through the one publish path (``write(_:app:ifMatch:context:action:status:extraDetail:)``:
    /// validation, ``PublishChecks``, `If-Match`, revision and audit in one transaction). Into an environment that
    /// requires approvals (``PreludeStore/EnvironmentSettings/requiredApprovals``) it becomes a change request of the
    /// target instead, in review, based on the target's live revision the `If-Match` named: 202 with the request
    /// (`Location`, its diff against the target), so the target's approval rules apply (docs/change-management.md).
    /// A token with the `bypass` capability publishes directly, audited as such.
    private func publish(_ proposal: Proposal, context: Context) throws -> HTTPResponse {
        let rules = try changes.rules(app: proposal.target.app, environment: proposal.target.environment)
        if rules.approval.requiresChangeRequest, !AdminAPI.mayBypass(context.token) {
            var message = proposal.message ?? proposal.action
            if let from = proposal.detail["from"]?.stringValue, proposal.message == nil {
                message = "\(proposal.action) from \(from)"
            }
            let record = try changes.create(
                app: proposal.target.app, environment: proposal.target.environment,
                proposal: .document(proposal.document),
                message: message, submit: true, by: AdminAPI.actor(context))
            var extra = proposal.detail
            extra["changeRequest"] = .integer(Int(record.id))
            return try ChangeRequestView.response(
                record, changes: changes, pretty: context.pretty, status: .accepted,
                location:
                    "/v1/admin/apps/\(record.app)/environments/\(record.environment)/change-requests/\(record.id)",
                extra: extra)
        }
        return try writer.write(
            proposal.document, app: proposal.target.app, ifMatch: proposal.ifMatch, context: context,
            action: proposal.action, extraDetail: proposal.detail, message: proposal.message,
            extraBody: proposal.detail)
    }

    /// A promotion's body.
    private struct PromotionRequest {
        var from: String
        var revision: Int?
        var features: [String]?
        var parts: [String]?
        var message: String?
    }

    /// `{"from", "revision"?, "features"?, "parts"?, "message"?}`; every problem at once, with pointers.
    private static func promotionRequest(_ body: JSONValue) throws(ProblemDetails) -> PromotionRequest {
        var reader = try RequestBodyReader(
            body: body,
            expected:
                "the body must be an object {\"from\": \"staging\", \"revision\"?, \"features\"?, \"parts\"?, \"message\"?}"
        )
        reader.reportUnknown(allowed: ["from", "revision", "features", "parts", "message"]) { "unknown member '\($0)'" }
        let from = reader["from"]?.stringValue
        if from.map(EnvironmentName.isValid) != true {
            reader.report("from", "member.missing", "'from' names the source environment")
        }
        var revision: Int?
        if let value = reader["revision"], !value.isNull {
            if let number = value.intValue, number >= 1 {
                revision = number
            } else {
                reader.report("revision", "value.invalid", "'revision' is a revision number")
            }
        }
        let features = promotionNames(&reader, "features", allowed: nil)
        let parts = promotionNames(&reader, "parts", allowed: promotionParts)
        var message: String?
        if let value = reader["message"], !value.isNull {
            if let text = value.stringValue, text.count <= 500, StoredText.problem(in: text, subject: "message") == nil
            {
                message = text.isEmpty ? nil : text
            } else {
                reader.report(
                    "message", "value.invalid", "'message' is text of at most 500 characters without control characters"
                )
            }
        }
        guard !reader.hasProblems, let from else {
            throw AdminAPI.invalid(reader.problems, consequence: "nothing was promoted")
        }
        return PromotionRequest(from: from, revision: revision, features: features, parts: parts, message: message)
    }

    /// `features` or `parts` of a promotion: absent or null (nil), else a non-empty array of distinct names.
    private static func promotionNames(_ reader: inout RequestBodyReader, _ key: String, allowed: [String]?)
        -> [String]?
    {
        guard let value = reader[key], !value.isNull else { return nil }
        guard let items = value.arrayValue, !items.isEmpty else {
            reader.report(key, "type.mismatch", "'\(key)' is a non-empty array")
            return nil
        }
        var result: [String] = []
        for (index, item) in items.enumerated() {
            guard let name = item.stringValue, allowed?.contains(name) ?? true else {
                reader.report(
                    key, index: index, "value.invalid",
                    allowed.map { "parts are \($0.joined(separator: ", "))" } ?? "a feature name")
                continue
            }
            if !result.contains(name) { result.append(name) }
        }
        return result
    }

    /// The target's document after promoting `source` (canonical JSON) into `target` (the target's live document,
    /// null when it has none) as `request` chooses.
    ///
    /// - Whole: neither `features` nor `parts`: the source document.
    /// - `features` alone: those features' settings, and the experiments on them, replace the target's.
    /// - `parts`: of the chosen features (every feature of the source without `features`), `copy` and `cadence`
    ///   replace the target's members of that name (and `defaults.copy`/`defaults.cadence` when no `features` are
    ///   chosen); `experiments` replaces the target's experiments on those features.
    private static func promoted(_ source: JSONValue, into target: JSONValue, request: PromotionRequest)
        throws(ProblemDetails)
        -> JSONValue
    {
        guard request.features != nil || request.parts != nil else { return source }
        guard case .object(var result) = target else {
            throw ProblemDetails(
                status: .conflict, type: PolicyStoreProblem.appUnavailable,
                detail: "the target environment serves no policy to merge into; promote a whole revision "
                    + "(without 'features' and 'parts')")
        }
        let sourceFeatures = source["features"]?.objectValue ?? JSONObject()
        var targetFeatures = result["features"]?.objectValue ?? JSONObject()
        let chosen = request.features ?? Array(sourceFeatures.keys)
        var problems: [FieldProblem] = []
        for (index, feature) in chosen.enumerated() where sourceFeatures[feature] == nil {
            problems.append(
                FieldProblem(
                    pointer: "/features/\(index)", code: "feature.unknown",
                    detail: "environment '\(request.from)' has no feature '\(feature)' to promote"))
        }
        let parts = request.parts
        for (index, feature) in chosen.enumerated()
        where parts != nil && sourceFeatures[feature] != nil && targetFeatures[feature] == nil
            && parts != ["experiments"]
        {
            problems.append(
                FieldProblem(
                    pointer: "/features/\(index)", code: "feature.absentInTarget",
                    detail: "the target has no feature '\(feature)': promote the whole feature (without 'parts')"))
        }
        guard problems.isEmpty else { throw AdminAPI.invalid(problems, consequence: "nothing was promoted") }
        let settingParts = (parts ?? []).filter { $0 != "experiments" }
        for feature in chosen {
            guard let copied = sourceFeatures[feature] else { continue }
            guard parts != nil else {
                targetFeatures[feature] = copied
                continue
            }
            guard case .object(var settings)? = targetFeatures[feature] else { continue }
            for part in settingParts { settings[part] = copied[part] }
            targetFeatures[feature] = .object(settings)
        }
        result["features"] = .object(targetFeatures)
        if request.features == nil, case .object(var defaults)? = result["defaults"] {
            for part in settingParts { defaults[part] = source["defaults"]?[part] }
            result["defaults"] = .object(defaults)
        }
        if parts == nil || parts?.contains("experiments") == true {
            let onChosen = { (experiment: JSONValue) in chosen.contains(experiment["feature"]?.stringValue ?? "") }
            let kept = (result["experiments"]?.arrayValue ?? []).filter { !onChosen($0) }
            let promoted = (source["experiments"]?.arrayValue ?? []).filter(onChosen)
            result["experiments"] = .array(kept + promoted)
        }
        return .object(result)
    }
}
