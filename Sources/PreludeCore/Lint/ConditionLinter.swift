/// CN-1 and CN-2: segments nobody uses, and conditions on attributes no client declares (docs/policy.md,
/// "Conditions"). A typo in an attribute name makes a condition silently never match (a missing attribute is null);
/// the top-level `attributes` declaration is how the app's clients say what they send.
enum ConditionLinter {
    static func lint(_ document: PolicyDocument) -> [LintFinding] {
        var findings: [LintFinding] = []
        let segments = document.segmentsByName
        let root = JSONPointer.root
        var used: Set<String> = []
        /// The attributes a condition reads itself, not through the segments it names (reported there).
        func own(_ condition: Condition) -> Set<String> {
            used.formUnion(condition.segmentsNamed)
            var read = condition.attributesRead
            for name in condition.segmentsNamed { read.subtract(segments[name]?.attributesRead ?? []) }
            return read
        }
        func check(_ condition: Condition, at pointer: JSONPointer) {
            for name in own(condition).sorted() where !name.hasPrefix("prelude.") && document.attributes[name] == nil {
                findings.append(
                    LintFinding(
                        rule: .cn2, pointer: pointer,
                        message: "The condition reads \"\(name)\", which the policy's attributes do not declare: "
                            + "declare it (\"attributes\": {\"\(name)\": \"number\"}) or fix the name; a client "
                            + "that does not send it never matches."))
            }
        }
        for segment in document.segments {
            check(segment.condition, at: root.appending("segments", segment.name))
        }
        func checkAsk(_ layer: FeatureOverride, at pointer: JSONPointer) {
            if case .condition(let condition) = layer.ask {
                check(condition, at: pointer.appending("ask", "condition"))
            }
        }
        checkAsk(document.defaults, at: root.appending("defaults"))
        for policy in document.orderedFeatures {
            let pointer = root.appending("features", policy.feature.rawValue)
            checkAsk(policy.settings, at: pointer)
            for (index, rule) in policy.targeting.enumerated() {
                let at = pointer.appending("targeting").appending(index)
                if let condition = rule.when.condition { check(condition, at: at.appending("when", "condition")) }
                checkAsk(rule.set, at: at.appending("set"))
            }
        }
        for (index, experiment) in document.experiments.enumerated() {
            if let condition = experiment.condition {
                check(condition, at: root.appending("experiments").appending(index).appending("condition"))
            }
            for (variantIndex, variant) in experiment.variants.enumerated() {
                checkAsk(
                    variant.set,
                    at: root.appending("experiments").appending(index).appending("variants").appending(variantIndex)
                        .appending("set"))
            }
        }
        for segment in document.segments where !used.contains(segment.name) {
            findings.append(
                LintFinding(
                    rule: .cn1, pointer: root.appending("segments", segment.name),
                    message:
                        "No rule, ask rule, experiment or segment names the segment \"\(segment.name)\" ($inSegment): "
                        + "remove it or use it."))
        }
        return findings
    }
}
