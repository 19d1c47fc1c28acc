import PreludeCore

/// `condition`: the condition language and its regex subset. First byte below 128: the rest is JSON
/// `[condition, attributes]` (GrowthBook's `evalCondition` case shape; the seeds are its cases), compiled and
/// evaluated; `{"$not": c}` must give the opposite verdict, `{"$and": [c]}` and a recompilation of the source the
/// same. From 128: the rest is a pattern, a NUL byte, then a text, for ``SafeRegex``: an accepted pattern wrapped in
/// `(?:…)` is accepted and matches exactly the same texts, and matching always finishes (time linear in the text).
func fuzzCondition(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let mode = bytes.first else { return }
    let rest = Array(bytes.dropFirst())
    if mode < 128 {
        guard let json = try? JSONValue(parsing: rest), let condition = json[0], let attributes = json[1] else {
            return
        }
        let (compiled, _) = Condition.compile(condition)
        let verdict = compiled.matches(attributes)
        let (negated, _) = Condition.compile(["$not": condition])
        if negated.matches(attributes) == verdict {
            fuzzFailure("$not did not negate", json.serialized())
        }
        let (wrapped, _) = Condition.compile(["$and": [condition]])
        let (again, _) = Condition.compile(compiled.source)
        if wrapped.matches(attributes) != verdict || again.matches(attributes) != verdict {
            fuzzFailure("$and of one condition or a recompilation changed the verdict", json.serialized())
        }
        if case .object(let object) = attributes {
            // The client's flat dictionary sees what the JSON object sees for names without dots.
            if object.keys.allSatisfy({ !$0.contains(".") }) {
                let flat = Dictionary(object.members.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
                if compiled.matches(flat) != verdict {
                    fuzzFailure("flat attributes changed the verdict", json.serialized())
                }
            }
        }
        return
    }
    let parts = rest.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
    let pattern = String(decoding: parts[0], as: UTF8.self)
    let text = parts.count > 1 ? String(decoding: parts[1], as: UTF8.self) : ""
    for insensitive in [false, true] {
        guard let regex = try? SafeRegex(pattern, caseInsensitive: insensitive) else { continue }
        guard let grouped = try? SafeRegex("(?:" + pattern + ")", caseInsensitive: insensitive) else {
            fuzzFailure("a group refused an accepted pattern", pattern)
        }
        if regex.matches(text) != grouped.matches(text) {
            fuzzFailure("a group changed what the pattern matches", "\(pattern) on \(text)")
        }
    }
}
