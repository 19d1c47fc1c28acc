import PreludeCore
import PreludeHTTP

/// The body of `POST /v1/admin/apps/{app}/rollouts`, checked member by member (docs/rollouts.md, "API"):
/// `{"feature", "set", "steps", "condition"?, "key"?, "start"?}` and the plan's other members
/// (``RolloutPlan/members``); for `POST …/rollouts/simulate`, `set` may be left out and `installsPerHour`,
/// `grantRate`, `denialRate` override the baseline.
struct RolloutRequest {
    var feature: Feature
    var change: JSONValue
    var plan: RolloutPlan
    /// The audience (``RolloutAudience``): a condition object, checked here for its shape only; the controller
    /// compiles it against the live policy's segments.
    var audience: JSONValue?
    var key: String?
    var start: Bool
    /// The baseline members of a simulation request.
    var baseline = JSONObject()

    static let members = ["feature", "set", "condition", "key", "start"] + RolloutPlan.members
    static let baselineMembers = ["installsPerHour", "grantRate", "denialRate"]

    /// Parses `body`; 422 naming every bad member (pointer and sentence) otherwise.
    ///
    /// With `template` (the stored template the body names in `template`, name and members), the body's plan
    /// members override the template's (``RolloutTemplate/merge(template:request:)``).
    init(_ body: JSONValue, simulate: Bool = false, template: (name: String, plan: JSONObject)? = nil)
        throws(ProblemDetails)
    {
        guard case .object(let object) = body else {
            throw AdminProblem.invalidRequest(
                "the body must be a JSON object: {\"feature\", \"set\", \"steps\"}", pointer: "", code: "type.mismatch",
                status: .unprocessableContent)
        }
        var problems: [FieldProblem] = []
        let allowed = simulate ? Self.members + Self.baselineMembers : Self.members
        for (name, value) in object where simulate && Self.baselineMembers.contains(name) {
            let range: ClosedRange<Double> = name == "installsPerHour" ? 1...1_000_000_000 : 0...1
            if let number = value.doubleValue, range.contains(number) {
                baseline[name] = .double(number)
            } else {
                problems.append(
                    FieldProblem(
                        pointer: "/\(name)", code: "value.invalid",
                        detail: name == "installsPerHour"
                            ? "installs reaching the feature per hour, a number from 1" : "a rate from 0 to 1"))
            }
        }
        for (name, _) in object where !allowed.contains(name) {
            problems.append(
                FieldProblem(
                    pointer: "/\(name)", code: "member.unknown",
                    detail: "not a member of a rollout (\(allowed.joined(separator: ", ")))"))
        }
        var feature: Feature?
        if let name = object["feature"]?.stringValue {
            feature = Feature(rawValue: name)
            if feature == nil {
                problems.append(
                    FieldProblem(pointer: "/feature", code: "feature.unknown", detail: "\"\(name)\" is not a feature"))
            }
        } else {
            problems.append(
                FieldProblem(pointer: "/feature", code: "member.missing", detail: "the feature to change, a string"))
        }
        let change = object["set"] ?? (simulate ? .object(JSONObject()) : .null)
        if change.objectValue == nil {
            problems.append(
                FieldProblem(
                    pointer: "/set", code: "member.missing",
                    detail: "what the new arm changes: feature settings as an experiment variant's set"))
        }
        var audience: JSONValue?
        if let value = object["condition"], value != .null {
            if value.objectValue != nil {
                audience = value
            } else {
                problems.append(
                    FieldProblem(
                        pointer: "/condition", code: "type.mismatch",
                        detail: "the audience, a condition object, e.g. {\"$inSegment\": \"engaged\"}"))
            }
        }
        var key: String?
        if let value = object["key"] {
            if let text = value.stringValue, !text.isEmpty, text.count <= 128, text.allSatisfy({ !$0.isWhitespace }) {
                key = text
            } else {
                problems.append(
                    FieldProblem(
                        pointer: "/key", code: "value.invalid",
                        detail: "the experiment key: 1 to 128 characters without spaces"))
            }
        }
        var start = false
        if let value = object["start"] {
            if case .bool(let flag) = value {
                start = flag
            } else {
                problems.append(FieldProblem(pointer: "/start", code: "type.mismatch", detail: "true or false"))
            }
        }
        var planMembers = JSONObject()
        for name in RolloutPlan.members where name != "template" {
            if let value = object[name] { planMembers[name] = value }
        }
        if let template {
            planMembers = RolloutTemplate.merge(template: template.plan, request: planMembers)
            planMembers["template"] = .string(template.name)
        }
        let decoded = RolloutPlan.decode(.object(planMembers))
        for problem in decoded.problems {
            problems.append(FieldProblem(pointer: "/" + problem.member, code: "value.invalid", detail: problem.message))
        }
        guard problems.isEmpty, let feature, let plan = decoded.plan else {
            throw ProblemDetails(
                status: .unprocessableContent, type: PublicProblem.validation, title: "The rollout is not valid",
                detail: "\(problems.count) problem\(problems.count == 1 ? "" : "s"); nothing was changed",
                errors: problems)
        }
        self.feature = feature
        self.change = change
        self.plan = plan
        self.audience = audience
        self.key = key
        self.start = start
    }
}
