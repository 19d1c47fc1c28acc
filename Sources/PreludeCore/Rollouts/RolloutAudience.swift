/// A rollout's audience (docs/rollouts.md, "Audience"): a condition in the language of targeting rules,
/// `$inSegment` included, that an install must match to enter the rollout at all.
///
/// While the rollout runs, the audience is its experiment's `condition`, so only matching installs are hashed into
/// its arms (``Experiment/admits(_:)``) and everyone else keeps the old behaviour, decided the same way offline and
/// on the server. On completion the change becomes a targeting rule with that condition (``completionRule``)
/// instead of being merged into the feature, so it still reaches only the audience.
public enum RolloutAudience {
    /// The name of the rule a completed rollout with an audience leaves on its feature: `<experimentKey>-audience`.
    public static func ruleName(experimentKey: String) -> String { experimentKey + "-audience" }

    /// The problems of `source` as an audience, compiled against the policy's `segments`: what a targeting rule's
    /// condition would report (unknown operators and segments, a `$regex` outside the safe subset), pointers
    /// relative to the condition.
    public static func problems(_ source: JSONValue, segments: [String: Condition]) -> [ValidationProblem] {
        guard case .object = source else {
            return [
                ValidationProblem(
                    .root, .typeMismatch, "an audience is a condition object, e.g. {\"$inSegment\": \"engaged\"}")
            ]
        }
        return Condition.compile(source, segments: segments).1
    }

    /// The targeting rule completion adds: `{"name": "<key>-audience", "when": {"condition": audience}, "set":
    /// change}`.
    public static func completionRule(experimentKey: String, audience: JSONValue, change: JSONValue) -> JSONValue {
        .object(
            JSONObject([
                ("name", .string(ruleName(experimentKey: experimentKey))),
                ("when", .object(JSONObject([("condition", audience)]))),
                ("set", change),
            ]))
    }

    /// The feature's `targeting` with the rollout's own rules put in their place: the rules not the rollout's (in
    /// their order), then `audienceRule` (completion with an audience), then the carve-outs' `keepRules`.
    ///
    /// Rules apply in order, each over the previous result (docs/policy.md, "Resolution"), and a running rollout's
    /// variant applied over every rule. Placing the audience rule after the others gives an install of the audience
    /// after completion what the new arm gave it before; the carve-outs come last because they pin a carved
    /// segment's texts to the old ones whatever precedes them (their fields and the change's never overlap:
    /// ``RolloutCarveOut/variantSet(_:excluding:)`` removes the carved copy from the change).
    public static func ordered(
        _ rules: [JSONValue], experimentKey: String, audienceRule: JSONValue?, keepRules: [JSONValue]
    ) -> [JSONValue] {
        rules.filter { !isOwnRule($0, experimentKey: experimentKey) } + (audienceRule.map { [$0] } ?? []) + keepRules
    }

    /// A carve-out's keep rule (``RolloutCarveOut/keepRule(segment:change:base:feature:experimentKey:)``) limited to
    /// the rollout's audience: only installs the change could reach need their old texts pinned, so an install
    /// outside the audience keeps whatever its own rules give it. Unchanged without an audience.
    public static func scoped(_ keepRule: JSONValue, to audience: JSONValue?) -> JSONValue {
        guard let audience, case .object(var rule) = keepRule else { return keepRule }
        var when = rule["when"]?.objectValue ?? JSONObject()
        when["condition"] = audience
        rule["when"] = .object(when)
        return .object(rule)
    }

    /// Whether `rule` is one the rollout of `experimentKey` wrote: its audience rule or a carve-out
    /// (`<key>-keep-…`, ``RolloutCarveOut/ruleName(experimentKey:segment:)``).
    public static func isOwnRule(_ rule: JSONValue, experimentKey: String) -> Bool {
        guard let name = rule["name"]?.stringValue else { return false }
        return name == ruleName(experimentKey: experimentKey) || name.hasPrefix(experimentKey + "-keep-")
    }
}
