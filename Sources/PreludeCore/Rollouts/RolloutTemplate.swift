/// Rollout templates per environment (docs/rollouts.md, "Templates"), as LaunchDarkly's release policies and
/// GrowthBook's and Unleash's templates: a named partial plan a rollout names instead of spelling it out, and the
/// environment's **floor** (the template named ``floorName``), which no plan of that environment may be weaker than.
public enum RolloutTemplate {
    /// The name of the template that is the environment's floor.
    public static let floorName = "floor"
    /// The members a template may hold: the plan's, and for the floor `minimumHoldSeconds` (every guarded step's
    /// least hold).
    public static let members = RolloutPlan.members.filter { $0 != "template" } + ["minimumHoldSeconds"]

    /// A template's problems as (member, sentence): unknown members, and for members it gives, the plan's rules
    /// (steps, alpha, budget, …) checked on a plan made of them.
    public static func problems(_ template: JSONValue, name: String) -> [(member: String, message: String)] {
        guard case .object(let object) = template else { return [("", "a template is a JSON object of plan members")] }
        var problems: [(member: String, message: String)] = []
        for (member, _) in object where !members.contains(member) {
            problems.append((member, "not a member of a rollout template (\(members.joined(separator: ", ")))"))
        }
        if let hold = object["minimumHoldSeconds"] {
            if case .integer(let seconds) = hold, seconds >= 0, seconds <= Int(RolloutPlan.longestHoldMillis / 1000) {
            } else {
                problems.append(("minimumHoldSeconds", "an integer from 0 to 2592000 (30 days)"))
            }
        }
        var probe = object
        probe["minimumHoldSeconds"] = nil
        if probe["steps"] == nil { probe["steps"] = [.object(JSONObject([("percent", .number(50))]))] }
        for problem in RolloutPlan.decode(.object(probe)).problems { problems.append(problem) }
        return problems
    }

    /// The request's plan members over the template's: a member the request gives wins; `actions` merge member by
    /// member. `minimumHoldSeconds` (a floor's member) is not a plan member and is left out.
    public static func merge(template: JSONObject, request: JSONObject) -> JSONObject {
        var merged = template
        merged["minimumHoldSeconds"] = nil
        for (member, value) in request {
            if member == "actions", case .object(let base) = merged["actions"] ?? .null, case .object(let own) = value {
                var actions = base
                for (name, response) in own { actions[name] = response }
                merged["actions"] = .object(actions)
            } else {
                merged[member] = value
            }
        }
        return merged
    }

    /// Where `plan` is weaker than `floor` (a floor template's members), as (member, sentence): a larger harm
    /// budget or none, a guarded step held shorter, a smaller α (the guard needs more evidence), a larger minimum
    /// effect (tuned to coarser harm), a guarded dimension missing, a milder action, or no approval where the floor
    /// asks for it.
    public static func floorProblems(_ plan: RolloutPlan, floor: JSONValue) -> [(member: String, message: String)] {
        guard case .object(let floor) = floor else { return [] }
        var problems: [(member: String, message: String)] = []
        if case .integer(let budget) = floor["harmBudget"] ?? .null {
            if let own = plan.harmBudget {
                if own > budget { problems.append(("harmBudget", "at most \(budget) installs in this environment")) }
            } else {
                problems.append(("harmBudget", "this environment requires a harm budget of at most \(budget) installs"))
            }
        }
        if case .integer(let seconds) = floor["minimumHoldSeconds"] ?? .null {
            for (index, step) in plan.steps.enumerated()
            where step.percent < 100 && step.minimumHoldMillis < Int64(seconds) * 1000 {
                problems.append(
                    ("steps/\(index)/minimumHoldSeconds", "at least \(seconds) in this environment"))
            }
        }
        if let alpha = floor["alpha"]?.doubleValue, plan.alpha < alpha {
            problems.append(
                ("alpha", "at least \(JSONValue.double(alpha)) in this environment (a smaller α stops harm later)"))
        }
        if let effect = floor["minimumEffect"]?.doubleValue, plan.minimumEffect > effect {
            problems.append(("minimumEffect", "at most \(JSONValue.double(effect)) in this environment"))
        }
        for name in floor["segments"]?.arrayValue?.compactMap(\.stringValue) ?? [] {
            if let dimension = SegmentBreakdown.Dimension(rawValue: name), !plan.segmentGuard.contains(dimension) {
                problems.append(("segments", "this environment guards \(name) segments; include it"))
            }
        }
        if case .object(let actions) = floor["actions"] ?? .null {
            for (name, value) in actions {
                guard RolloutActions.members.contains(name),
                    let least = value.stringValue.flatMap(RolloutActions.Response.init(rawValue:))
                else { continue }
                let own = plan.actions[name]
                if RolloutActions.strength(own) < RolloutActions.strength(least) {
                    problems.append(
                        ("actions/\(name)", "\(own.rawValue) is milder than this environment's \(least.rawValue)"))
                }
            }
        }
        if floor["requiresApproval"] == .bool(true), !plan.requiresApproval {
            problems.append(("requiresApproval", "this environment requires an operator's go for the last step"))
        }
        return problems
    }
}
