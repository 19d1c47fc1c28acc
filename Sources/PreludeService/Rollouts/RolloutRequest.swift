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
        var reader = try RequestBodyReader(
            body: body, expected: "the body must be a JSON object: {\"feature\", \"set\", \"steps\"}")
        if simulate { baseline = Self.readBaseline(&reader) }
        let allowed = simulate ? Self.members + Self.baselineMembers : Self.members
        reader.reportUnknown(allowed: allowed) { _ in "not a member of a rollout (\(allowed.joined(separator: ", ")))" }
        var feature: Feature?
        if let name = reader["feature"]?.stringValue {
            feature = Feature(rawValue: name)
            if feature == nil { reader.report("feature", "feature.unknown", "\"\(name)\" is not a feature") }
        } else {
            reader.report("feature", "member.missing", "the feature to change, a string")
        }
        let change = reader["set"] ?? (simulate ? .object(JSONObject()) : .null)
        if change.objectValue == nil {
            reader.report(
                "set", "member.missing", "what the new arm changes: feature settings as an experiment variant's set")
        }
        let condition = reader.read(
            "condition", as: .object, mismatch: "the audience, a condition object, e.g. {\"$inSegment\": \"engaged\"}",
            nullIsAbsent: true)
        if let text = reader["key"].map({ $0.stringValue ?? "" }) {
            if !text.isEmpty, text.count <= 128, text.allSatisfy({ !$0.isWhitespace }) {
                key = text
            } else {
                reader.report("key", "value.invalid", "the experiment key: 1 to 128 characters without spaces")
            }
        }
        let start = reader.read("start", as: .bool, mismatch: "true or false") ?? false
        var planMembers = JSONObject()
        for name in RolloutPlan.members where name != "template" {
            if let value = reader[name] { planMembers[name] = value }
        }
        if let template {
            planMembers = RolloutTemplate.merge(template: template.plan, request: planMembers)
            planMembers["template"] = .string(template.name)
        }
        let decoded = RolloutPlan.decode(.object(planMembers))
        // The plan names nested members as paths (`segments/2`): already pointers, not member names to escape.
        reader.problems += decoded.problems.map {
            FieldProblem(pointer: "/" + $0.member, code: "value.invalid", detail: $0.message)
        }
        guard !reader.hasProblems, let feature, let plan = decoded.plan else {
            throw RequestBodyReader.unprocessable(reader.problems, title: "The rollout is not valid")
        }
        self.feature = feature
        self.change = change
        self.plan = plan
        self.audience = condition.map { .object($0) }
        self.start = start
    }

    /// The baseline overrides of a simulation: installs per hour from 1, rates from 0 to 1.
    private static func readBaseline(_ reader: inout RequestBodyReader) -> JSONObject {
        var baseline = JSONObject()
        for (name, value) in reader.object where baselineMembers.contains(name) {
            let range: ClosedRange<Double> = name == "installsPerHour" ? 1...1_000_000_000 : 0...1
            if let number = value.doubleValue, range.contains(number) {
                baseline[name] = .double(number)
            } else {
                reader.report(
                    name, "value.invalid",
                    name == "installsPerHour"
                        ? "installs reaching the feature per hour, a number from 1" : "a rate from 0 to 1")
            }
        }
        return baseline
    }
}
