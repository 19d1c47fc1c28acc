import PreludeCore

/// The cadence ledger a client keeps, as contract vectors define it (docs/contract-vectors.md): what each step's
/// `history` and `trackingPromptShown` must be, given the steps before it.
public struct ContractLedger: Sendable {
    /// Per feature, per screen kind: shownCount, lastShown, lastOutcome, as the decide endpoint reads them.
    public private(set) var history: [String: JSONObject] = [:]
    /// Features whose one system prompt happened (tracking, alarms, local network).
    public private(set) var promptShown: Set<String> = []

    /// An empty ledger: nothing shown yet.
    public init() {}

    /// Records what the person did with `decision` at `at`.
    ///
    /// A shown screen with `countsAgainst` adds one showing of that kind at `at`, with the outcome `continued`,
    /// `leftWithoutContinuing` (left) or `dismissed`; a system answer to tracking, or a request completed with no
    /// knowable answer (health), marks its one prompt as shown.
    public mutating func record(decision: JSONValue, feature: String, at: Double, user: [String]) {
        if user.contains("shown"), let kind = decision["countsAgainst"]?.stringValue {
            var kinds = history[feature] ?? JSONObject()
            let previous = kinds[kind]?["shownCount"]?.intValue ?? 0
            var entry = JSONObject()
            entry["shownCount"] = .integer(previous + 1)
            entry["lastShown"] = .number(at)
            if user.contains("continued") {
                entry["lastOutcome"] = "continued"
            } else if user.contains("left") {
                entry["lastOutcome"] = "leftWithoutContinuing"
            } else if user.contains("dismissed") {
                entry["lastOutcome"] = "dismissed"
            }
            kinds[kind] = .object(entry)
            history[feature] = kinds
        }
        if Feature(rawValue: feature)?.capabilities.promptRecordedByClient == true
            && (user.contains("granted") || user.contains("denied") || user.contains("promptCompleted"))
        {
            promptShown.insert(feature)
        }
    }

    /// The problems of `state` (a step's client state) against this ledger; empty when they agree.
    public func mismatches(_ state: JSONValue) -> [String] {
        guard let feature = state["feature"]?.stringValue else { return ["state has no feature"] }
        var problems: [String] = []
        let expected = history[feature] ?? JSONObject()
        let actual = state["history"]?.objectValue ?? JSONObject()
        if JSONValue.object(expected) != JSONValue.object(actual) {
            // Compare numerically: 1800000000 and 1800000000.0 are the same instant.
            let same =
                Set(expected.map(\.key)) == Set(actual.map(\.key))
                && expected.allSatisfy { pair in
                    ["shownCount", "lastShown", "lastOutcome"].allSatisfy { member in
                        let a = pair.value[member], b = actual[pair.key]?[member]
                        return a == b || (a?.doubleValue != nil && a?.doubleValue == b?.doubleValue)
                    }
                }
            if !same {
                problems.append(
                    "history: the ledger holds \(JSONValue.object(expected)), the step sends \(JSONValue.object(actual))"
                )
            }
        }
        let shown = state["trackingPromptShown"]?.boolValue ?? false
        if shown != promptShown.contains(feature) {
            problems.append(
                "trackingPromptShown: the ledger says \(promptShown.contains(feature)), the step sends \(shown)")
        }
        return problems
    }
}
