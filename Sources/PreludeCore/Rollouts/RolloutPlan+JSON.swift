extension RolloutPlan {
    /// The plan's members in a request body or a stored plan.
    public static let members = [
        "steps", "alpha", "minimumEffect", "requiresApproval", "harmBudget", "segments", "actions",
        "noTrafficGraceSeconds", "mislabelledShare", "template",
    ]

    /// `{"steps": [{"percent", "minimumHoldSeconds", "minimumExposed"}], "alpha", "minimumEffect",
    /// "requiresApproval", "harmBudget", "segments", "actions", "noTrafficGraceSeconds", "mislabelledShare",
    /// "template"?}`: the admin API's and the stored form (times in seconds).
    public var jsonValue: JSONValue {
        .object(
            JSONObject(
                [
                    (
                        "steps",
                        .array(
                            steps.map { step in
                                .object(
                                    JSONObject([
                                        ("percent", .number(step.percent)),
                                        ("minimumHoldSeconds", .integer(Int(step.minimumHoldMillis / 1000))),
                                        ("minimumExposed", .integer(step.minimumExposed)),
                                    ]))
                            })
                    ),
                    ("alpha", .double(alpha)),
                    ("minimumEffect", .double(minimumEffect)),
                    ("requiresApproval", .bool(requiresApproval)),
                    ("harmBudget", harmBudget.map { .integer($0) } ?? .null),
                    ("segments", .array(segmentGuard.map { .string($0.rawValue) })),
                    ("actions", actions.jsonValue),
                    ("noTrafficGraceSeconds", .integer(Int(noTrafficGraceMillis / 1000))),
                    ("mislabelledShare", .double(mislabelledShare)),
                ] + (template.map { [("template", JSONValue.string($0))] } ?? [])))
    }

    /// Decodes ``jsonValue``'s form. Returns the plan, or every problem as (member path, sentence): members of the
    /// wrong type, missing steps, unknown members; then ``problems()`` of the decoded plan.
    public static func decode(_ json: JSONValue) -> (plan: RolloutPlan?, problems: [(member: String, message: String)])
    {
        var problems: [(member: String, message: String)] = []
        guard case .object(let object) = json else { return (nil, [("", "a plan is a JSON object")]) }
        var plan = RolloutPlan(steps: [])
        if let value = object["alpha"] {
            if let number = value.doubleValue { plan.alpha = number } else { problems.append(("alpha", "a number")) }
        }
        if let value = object["minimumEffect"] {
            if let number = value.doubleValue {
                plan.minimumEffect = number
            } else {
                problems.append(("minimumEffect", "a number"))
            }
        }
        if let value = object["requiresApproval"] {
            if case .bool(let flag) = value {
                plan.requiresApproval = flag
            } else {
                problems.append(("requiresApproval", "true or false"))
            }
        }
        if let value = object["harmBudget"], value != .null {
            if case .integer(let count) = value, count >= 1, count <= largestHarmBudget {
                plan.harmBudget = count
            } else {
                problems.append(("harmBudget", "installs, an integer from 1 to \(largestHarmBudget)"))
            }
        }
        if let value = object["segments"] {
            if let names = value.arrayValue, names.allSatisfy({ $0.stringValue != nil }) {
                for (index, name) in names.enumerated() {
                    if let dimension = SegmentBreakdown.Dimension(rawValue: name.stringValue ?? "") {
                        plan.segmentGuard.append(dimension)
                    } else {
                        problems.append(("segments/\(index)", "osMajor or locale"))
                    }
                }
            } else {
                problems.append(("segments", "an array of dimensions: [\"osMajor\", \"locale\"]"))
            }
        }
        if let value = object["actions"] {
            if case .object(let members) = value {
                decodeActions(members, into: &plan.actions, problems: &problems)
            } else {
                problems.append(("actions", "an object: {\"harm\": \"rollback\", \"sampleRatioMismatch\": \"hold\"}"))
            }
        }
        if let value = object["noTrafficGraceSeconds"] {
            if case .integer(let seconds) = value, seconds >= 0, seconds <= Int(longestHoldMillis / 1000) {
                plan.noTrafficGraceMillis = Int64(seconds) * 1000
            } else {
                problems.append(("noTrafficGraceSeconds", "an integer from 60 to 2592000 (30 days)"))
            }
        }
        if let value = object["mislabelledShare"] {
            if let number = value.doubleValue {
                plan.mislabelledShare = number
            } else {
                problems.append(("mislabelledShare", "a share above 0 and below 1, e.g. 0.05"))
            }
        }
        if let value = object["template"] {
            if let name = value.stringValue {
                plan.template = name
            } else {
                problems.append(("template", "the name of one of the environment's rollout templates"))
            }
        }
        guard let steps = object["steps"]?.arrayValue else {
            problems.append(("steps", "an array of steps, e.g. [{\"percent\": 5, \"minimumHoldSeconds\": 3600}]"))
            return (nil, problems)
        }
        plan.steps = decodeSteps(steps, problems: &problems)
        guard problems.isEmpty else { return (nil, problems) }
        let rules = plan.problems()
        if rules.isEmpty { return (plan, []) }
        return (nil, rules)
    }

    /// The plan's `actions` by kind of finding, set in `actions` (each problem appended to `problems`, with its
    /// member path).
    private static func decodeActions(
        _ members: JSONObject, into actions: inout RolloutActions, problems: inout [(member: String, message: String)]
    ) {
        for (name, response) in members {
            guard RolloutActions.members.contains(name) else {
                problems.append(
                    (
                        "actions/\(name)",
                        "not a kind of finding (\(RolloutActions.members.joined(separator: ", ")))"
                    ))
                continue
            }
            guard let parsed = response.stringValue.flatMap(RolloutActions.Response.init(rawValue:)) else {
                problems.append(("actions/\(name)", "rollback, hold, warn or (segmentHarm only) exclude"))
                continue
            }
            actions[name] = parsed
        }
    }

    /// The plan's `steps` (each problem appended to `problems`, with its member path).
    private static func decodeSteps(_ steps: [JSONValue], problems: inout [(member: String, message: String)]) -> [Step]
    {
        var decoded: [Step] = []
        for (index, value) in steps.enumerated() {
            guard case .object(let step) = value else {
                problems.append(("steps/\(index)", "a step is an object"))
                continue
            }
            for (name, _) in step where !["percent", "minimumHoldSeconds", "minimumExposed"].contains(name) {
                problems.append(("steps/\(index)/\(name)", "not a member of a step"))
            }
            guard let percent = step["percent"]?.doubleValue else {
                problems.append(("steps/\(index)/percent", "a number from above 0 to 100"))
                continue
            }
            var hold: Int64 = 0
            if let value = step["minimumHoldSeconds"] {
                if case .integer(let seconds) = value, seconds >= 0, seconds <= Int(longestHoldMillis / 1000) {
                    hold = Int64(seconds) * 1000
                } else {
                    problems.append(("steps/\(index)/minimumHoldSeconds", "an integer from 0 to 2592000 (30 days)"))
                }
            }
            var exposed = 0
            if let value = step["minimumExposed"] {
                if case .integer(let count) = value, count >= 0, count <= 100_000_000 {
                    exposed = count
                } else {
                    problems.append(("steps/\(index)/minimumExposed", "an integer from 0 to 100000000"))
                }
            }
            decoded.append(Step(percent: percent, minimumHoldMillis: hold, minimumExposed: exposed))
        }
        return decoded
    }
}
