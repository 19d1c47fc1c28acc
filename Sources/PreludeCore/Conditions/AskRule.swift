/// When a feature may be asked for at all (a feature's, rule's or variant's `ask`): before its moment, the engine
/// answers `wait` with reason `momentNotReached` and no `eligibleAt`, since it cannot know when the app will report
/// the moment.
public enum AskRule: Sendable, Hashable {
    /// Whenever the feature is used (the built-in behaviour; a variant uses it to undo a rule's moment).
    case anytime
    /// After the app reported `moment` at least `atLeast` times (`{"after": {"moment": …, "atLeast": n}}`).
    case after(moment: String, atLeast: Int)
    /// When the client matches a condition (`{"condition": {…}}`), e.g. on `prelude.launchCount`.
    case condition(Condition)

    /// Whether the client reached the moment.
    public func isReached(by context: ClientContext) -> Bool {
        switch self {
        case .anytime: true
        case .after(let moment, let atLeast): (context.moments[moment]?.count ?? 0) >= atLeast
        case .condition(let condition): condition.matches(context)
        }
    }

    /// The attribute paths it reads (a resolution cache keys on them).
    public var attributesRead: Set<String> {
        switch self {
        case .anytime: []
        case .after(let moment, _): ["prelude.moment.\(moment).count"]
        case .condition(let condition): condition.attributesRead
        }
    }

    /// `"anytime"`, `{"after": {"moment", "atLeast"}}` or `{"condition": …}`.
    public var jsonValue: JSONValue {
        switch self {
        case .anytime: "anytime"
        case .after(let moment, let atLeast):
            ["after": ["moment": .string(moment), "atLeast": .integer(atLeast)]]
        case .condition(let condition): ["condition": condition.source]
        }
    }

    /// A phrase for the preview: "after 2 × orderPlaced".
    public var summary: String {
        switch self {
        case .anytime: "at first use"
        case .after(let moment, let atLeast): "after \(atLeast) × \(moment)"
        case .condition(let condition): "when \(condition.source.serialized())"
        }
    }

    /// Reads an `ask` member; problems point under `pointer`.
    static func decode(_ value: JSONValue, at pointer: JSONPointer, segments: [String: Condition]) -> (
        AskRule?, [ValidationProblem]
    ) {
        if value == "anytime" { return (.anytime, []) }
        let shape = "ask is \"anytime\", {\"after\": {\"moment\": name, \"atLeast\": n}} or {\"condition\": {…}}."
        guard case .object(let object) = value, object.count == 1, let (key, body) = object.members.first else {
            return (nil, [ValidationProblem(pointer, .invalidCondition, shape)])
        }
        switch key {
        case "after":
            let at = pointer.appending("after")
            guard case .object(let after) = body, let moment = after["moment"]?.stringValue,
                ConditionCompiler.isAttributeName(moment), after.keys.allSatisfy({ $0 == "moment" || $0 == "atLeast" })
            else {
                return (
                    nil,
                    [
                        ValidationProblem(
                            at, .invalidCondition,
                            "after takes {\"moment\": name, \"atLeast\": n}: a moment name (letters, digits, \"_\", "
                                + "\".\") and a count from 1 to \(MomentRecord.maximumOccurrences).")
                    ]
                )
            }
            let atLeast = after["atLeast"]?.intValue ?? 1
            guard (1...MomentRecord.maximumOccurrences).contains(atLeast) else {
                return (
                    nil,
                    [
                        ValidationProblem(
                            at.appending("atLeast"), .invalidCondition,
                            "atLeast is a count from 1 to \(MomentRecord.maximumOccurrences).")
                    ]
                )
            }
            return (.after(moment: moment, atLeast: atLeast), [])
        case "condition":
            let at = pointer.appending("condition")
            let (condition, problems) = Condition.compile(body, segments: segments)
            return (
                .condition(condition),
                problems.map {
                    ValidationProblem(JSONPointer(tokens: at.tokens + $0.pointer.tokens), $0.code, $0.message)
                }
            )
        default:
            return (nil, [ValidationProblem(pointer.appending(key), .unknownMember, shape)])
        }
    }
}
