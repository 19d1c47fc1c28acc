/// Carving a harmed segment out of a rollout (docs/rollouts.md, "Per-segment guarding"): the segment keeps the old
/// screen while the rest ramps on, with documents every client already reads.
///
/// The rollout's variant is applied after the feature's targeting rules (docs/policy.md, "Resolution"), so a rule
/// alone cannot undo it. What can be expressed is a **locale** carve-out of a change to **copy**: the variant's
/// copy for that locale (and the language it belongs to) is taken out, and a targeting rule
/// `{"when": {"locales": [segment]}, "set": {"copy": {segment: old texts}}}` pins, for that locale, every text the
/// change touches to what those installs saw before (so a locale that fell back to the changed default copy keeps
/// the old default's texts too). Completion merges the change without the carved copy and keeps the rule.
/// Anything else (an OS-version segment, a change to style, strategy or cadence) cannot be carved out: the
/// machine holds instead.
public enum RolloutCarveOut {
    /// The dimensions whose segments `change` (a variant's `set`) can be carved out for: `locale` when the change
    /// is copy only, none otherwise.
    public static func carvableDimensions(_ change: JSONValue) -> Set<SegmentBreakdown.Dimension> {
        guard case .object(let object) = change, object.count == 1, case .object = object["copy"] ?? .null else {
            return []
        }
        return [.locale]
    }

    /// `change` without the copy of the carved-out locales: a copy key is dropped when it is the segment's tag,
    /// its language, or (for a language-only segment) any tag of that language.
    public static func variantSet(_ change: JSONValue, excluding segments: [RolloutSegment]) -> JSONValue {
        let locales = segments.filter { $0.dimension == .locale }.map(\.value)
        guard !locales.isEmpty, case .object(var object) = change, case .object(let copy) = object["copy"] ?? .null
        else { return change }
        var kept = JSONObject()
        for (tag, texts) in copy where !locales.contains(where: { matches(copyTag: tag, segment: $0) }) {
            kept[tag] = texts
        }
        object["copy"] = .object(kept)
        return .object(object)
    }

    /// The name of the rule that keeps `segment`'s old screen in the rollout `experimentKey`.
    public static func ruleName(experimentKey: String, segment: RolloutSegment) -> String {
        "\(experimentKey)-keep-\(segment.value)"
    }

    /// The targeting rule keeping `segment`'s old copy: every text `change` touches (in any locale), as `base` (the
    /// policy without the rollout) resolves it for `segment`'s locale, placeholders filled. Nil when the segment is
    /// not a locale or nothing resolves.
    public static func keepRule(
        segment: RolloutSegment, change: JSONValue, base: PolicyDocument, feature: Feature, experimentKey: String
    ) -> JSONValue? {
        guard segment.dimension == .locale, case .object(let copy) = change["copy"] ?? .null,
            let resolved = PolicyResolver.resolve(feature, in: base, context: ClientContext(locale: segment.value))
        else { return nil }
        var screens: [(String, [(String, JSONValue)])] = []
        func add(_ screen: String, _ field: String, _ text: String) {
            if let index = screens.firstIndex(where: { $0.0 == screen }) {
                if !screens[index].1.contains(where: { $0.0 == field }) {
                    screens[index].1.append((field, .string(text)))
                }
            } else {
                screens.append((screen, [(field, .string(text))]))
            }
        }
        for (_, texts) in copy {
            guard case .object(let byScreen) = texts else { continue }
            for (screenName, fields) in byScreen {
                guard let screen = CopyScreen(rawValue: screenName), case .object(let byField) = fields else {
                    continue
                }
                for (fieldName, _) in byField {
                    guard let field = CopyField(rawValue: fieldName), let text = resolved.copy[screen, field] else {
                        continue
                    }
                    add(screenName, fieldName, text)
                }
            }
        }
        guard !screens.isEmpty else { return nil }
        let texts = JSONValue.object(JSONObject(screens.map { ($0.0, JSONValue.object(JSONObject($0.1))) }))
        return .object(
            JSONObject([
                ("name", .string(ruleName(experimentKey: experimentKey, segment: segment))),
                ("when", .object(JSONObject([("locales", .array([.string(segment.value)]))]))),
                ("set", .object(JSONObject([("copy", .object(JSONObject([(segment.value, texts)])))]))),
            ]))
    }

    /// Whether the copy of `tag` is carved out with the locale segment `segment`.
    static func matches(copyTag tag: String, segment: String) -> Bool {
        func language(_ text: String) -> String {
            String(text.split(separator: "-", maxSplits: 1).first ?? "").lowercased()
        }
        let tag = tag.lowercased()
        let segment = segment.lowercased()
        if tag == segment || tag == language(segment) { return true }
        return !segment.contains("-") && language(tag) == segment
    }
}
