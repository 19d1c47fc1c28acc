import PreludeTestSupport
import Testing

@testable import PreludeCore

/// The resolution key must name every client input the resolver reads: over generated documents with targeting
/// rules on every input (platform, OS version, app version, locales), experiments with weights, coverage and
/// audiences on an attribute, completed rollouts' audience rules (``RolloutAudience``), and
/// copy in several locales, any two generated clients with equal keys get byte-identical resolved policies.
@Suite struct ResolutionKeyPropertyTests {
    static let locales = ["en", "fr", "fr-CA", "ja", "zh-Hans", "zh-Hant", "pt-BR", "de"]
    static let features = ["microphone", "contacts", "locationWhenInUse", "camera", "photos"]
    static let buttonFeatures: Set<String> = ["contacts", "locationWhenInUse"]
    static let platforms = Platform.allCases.map(\.rawValue)
    static let versions = ["9", "12.4", "14", "15.0", "15.2", "16.4.1", "17", "17.4", "18.0", "18.2", "26"]
    static let appVersions = ["0.9", "1.0", "1.2.3", "2", "2.3.0", "2.10", "3.0.0-beta.1", "3"]
    static let operators = [">=", "<", "<=", ">", "="]

    /// A JSON string literal (generated values never need escaping).
    static func quoted(_ s: String) -> String { "\"\(s)\"" }

    static func pick<T>(_ values: [T], _ rng: inout SplitMix64) -> T { values[rng.below(values.count)] }

    /// A few distinct elements of `values`, at least one.
    static func some(_ values: [String], max: Int, _ rng: inout SplitMix64) -> [String] {
        var chosen: [String] = []
        for _ in 0..<(1 + rng.below(max)) {
            let value = pick(values, &rng)
            if !chosen.contains(value) { chosen.append(value) }
        }
        return chosen
    }

    /// A version range: one comparator, a bounded interval, or an OR of two.
    static func range(_ values: [String], _ rng: inout SplitMix64) -> String {
        switch rng.below(4) {
        case 0: return pick(operators, &rng) + pick(values, &rng)
        case 1: return ">=\(pick(values, &rng)) <\(pick(values, &rng))"
        case 2: return "<\(pick(values, &rng)) || >=\(pick(values, &rng))"
        default: return pick(values, &rng)
        }
    }

    /// Copy texts for `feature` in a random subset of locales (the default locale's complete copy is in defaults).
    static func copy(tag: String, _ rng: inout SplitMix64) -> String {
        var entries: [String] = []
        for locale in some(locales, max: 3, &rng) {
            let title = "\(tag) title \(locale)"
            var screens = ["\"prime\": {\"title\": \(quoted(title)), \"message\": \"{appName} \(tag) \(locale)\"}"]
            if rng.chance(0.4) {
                screens.append("\"settings\": {\"title\": \"\(tag) off \(locale)\", \"message\": \"Open \(locale)\"}")
            }
            if rng.chance(0.3) { screens.append("\"button\": {\"caption\": \"\(tag) caption \(locale)\"}") }
            entries.append("\(quoted(locale)): {\(screens.joined(separator: ", "))}")
        }
        return "{\(entries.joined(separator: ", "))}"
    }

    /// An override (`set`) for `feature`: some of strategy, style, cadence, settings and copy.
    static func override(feature: String, tag: String, _ rng: inout SplitMix64) -> String {
        var members: [String] = []
        if rng.chance(0.5) {
            var strategies = ["prime", "direct"]
            if buttonFeatures.contains(feature) { strategies += ["button", "button"] }
            members.append("\"strategy\": \(quoted(pick(strategies, &rng)))")
        }
        if rng.chance(0.3) { members.append("\"style\": \(quoted(pick(["single", "twoButton"], &rng)))") }
        if rng.chance(0.3) { members.append("\"cadence\": {\"prime\": {\"maxShows\": \(1 + rng.below(5))}}") }
        if rng.chance(0.2) { members.append("\"settings\": {\"delayMs\": \(rng.below(4) * 250)}") }
        if rng.chance(0.6) { members.append("\"copy\": \(copy(tag: tag, &rng))") }
        return "{\(members.joined(separator: ", "))}"
    }

    /// The client inputs a document's rules may look at; each document draws its own, so that the key's shapes
    /// (which inputs it keeps) vary too.
    struct Inputs {
        var platform, os, appVersion, locales: Bool

        /// Some inputs, at least one.
        static func random(_ rng: inout SplitMix64) -> Inputs {
            var inputs = Inputs(platform: false, os: false, appVersion: false, locales: false)
            while !(inputs.platform || inputs.os || inputs.appVersion || inputs.locales) {
                inputs = Inputs(
                    platform: rng.chance(0.6), os: rng.chance(0.6), appVersion: rng.chance(0.6),
                    locales: rng.chance(0.6))
            }
            return inputs
        }
    }

    /// A targeting condition on one or more of `inputs`.
    static func condition(_ inputs: Inputs, _ rng: inout SplitMix64) -> String {
        var members: [String] = []
        while members.isEmpty {
            if inputs.platform && rng.chance(0.5) {
                let chosen = some(platforms, max: 3, &rng)
                members.append(
                    "\"platform\": "
                        + (chosen.count == 1 ? quoted(chosen[0]) : "[\(chosen.map(quoted).joined(separator: ", "))]"))
            }
            if inputs.os && rng.chance(0.5) { members.append("\"os\": \(quoted(range(versions, &rng)))") }
            if inputs.appVersion && rng.chance(0.5) {
                members.append("\"appVersion\": \(quoted(range(appVersions, &rng)))")
            }
            if inputs.locales && rng.chance(0.5) {
                let chosen = some(["en", "fr", "ja", "zh", "zh-Hant", "pt", "de", "es"], max: 2, &rng)
                members.append("\"locales\": [\(chosen.map(quoted).joined(separator: ", "))]")
            }
        }
        return "{\(members.joined(separator: ", "))}"
    }

    /// `count` weights in tenths summing to 10, some of them 0.
    static func weights(count: Int, _ rng: inout SplitMix64) -> [Int] {
        var weights = Array(repeating: 0, count: count)
        for _ in 0..<10 { weights[rng.below(count)] += 1 }
        return weights
    }

    /// A random valid document; retries until the validator accepts one (some rules the validator rejects, such
    /// as `button` only for OS versions older than the button).
    static func document(_ rng: inout SplitMix64, rejected: inout [String]) -> PolicyDocument {
        while true {
            let defaultLocale = pick(["en", "en", "fr"], &rng)
            let inputs = Inputs.random(&rng)
            var features: [String] = []
            var chosenFeatures: [String] = []
            for feature in Self.features where rng.chance(0.7) || chosenFeatures.isEmpty {
                chosenFeatures.append(feature)
                var members = ["\"copy\": \(copy(tag: feature, &rng))"]
                if rng.chance(0.4) {
                    var strategies = ["prime", "direct"]
                    if buttonFeatures.contains(feature) { strategies.append("button") }
                    members.append("\"strategy\": \(quoted(pick(strategies, &rng)))")
                }
                var rules: [String] = []
                for n in 0..<rng.below(5) {
                    let set = override(feature: feature, tag: "\(feature) r\(n)", &rng)
                    rules.append("{\"name\": \"r\(n)\", \"when\": \(condition(inputs, &rng)), \"set\": \(set)}")
                }
                if rng.chance(0.3) {
                    // A completed rollout with an audience (issue 38): its rule reads the tier, which must enter the
                    // key as the running rollout's experiment audience does.
                    let tiers = some(["free", "pro", "team"], max: 2, &rng).map(quoted).joined(separator: ", ")
                    let set = override(feature: feature, tag: "\(feature) done", &rng)
                    if let audience = try? JSONValue(parsing: Array("{\"tier\": {\"$in\": [\(tiers)]}}".utf8)),
                        let change = try? JSONValue(parsing: Array(set.utf8))
                    {
                        rules.append(
                            RolloutAudience.completionRule(
                                experimentKey: "done-\(feature)", audience: audience, change: change
                            ).serialized())
                    }
                }
                members.append("\"targeting\": [\(rules.joined(separator: ", "))]")
                features.append("\(quoted(feature)): {\(members.joined(separator: ", "))}")
            }
            var experiments: [String] = []
            for (n, feature) in chosenFeatures.enumerated() where rng.chance(0.5) {
                var variants: [String] = []
                let tenths = Self.weights(count: 1 + rng.below(3), &rng)
                // The validator reads weights of 1 or more as percentages.
                let percentages = rng.chance(0.5) || tenths.contains(10)
                for (v, tenths) in tenths.enumerated() {
                    let weight = percentages ? String(tenths * 10) : String(Double(tenths) / 10)
                    let set = override(feature: feature, tag: "\(feature) x\(n) v\(v)", &rng)
                    variants.append("{\"name\": \"v\(v)\", \"weight\": \(weight), \"set\": \(set)}")
                }
                let coverage = pick(["1", "0.5", "0.25", "0.8", "0"], &rng)
                let seed = rng.chance(0.3) ? ", \"seed\": \"seed-\(rng.below(100))\"" : ""
                // An audience on the tier attribute (issue 38): its value must enter the key.
                let tiers = some(["free", "pro", "team"], max: 2, &rng).map(quoted).joined(separator: ", ")
                let audience = rng.chance(0.4) ? ", \"condition\": {\"tier\": {\"$in\": [\(tiers)]}}" : ""
                experiments.append(
                    "{\"key\": \"x\(n)\", \"feature\": \(quoted(feature)), \"coverage\": \(coverage)\(seed)\(audience), "
                        + "\"variants\": [\(variants.joined(separator: ", "))]}")
            }
            let text = """
                {"schemaVersion": 1,
                 "app": {"id": "gen", "name": "Gen App", "defaultLocale": \(quoted(defaultLocale))},
                 "defaults": {"copy": {\(quoted(defaultLocale)): {
                   "prime": {"title": "Allow", "message": "{appName} asks.", "continueLabel": "Continue", "cancelLabel": "Later"},
                   "settings": {"title": "Off", "message": "Open Settings.", "openLabel": "Open", "cancelLabel": "Not Now"},
                   "denied": {"title": "Off", "message": "Turn it on."},
                   "restricted": {"title": "Blocked", "message": "A setting blocks it."},
                   "unsupported": {"title": "Missing", "message": "Not on this device."},
                   "button": {"caption": "Share"}}}},
                 "features": {\(features.joined(separator: ", "))},
                 "experiments": [\(experiments.joined(separator: ", "))]}
                """
            let validation = PolicyValidator.validate(text: text)
            if let document = validation.document { return document }
            rejected.append(validation.problems.map(\.description).joined(separator: "; "))
        }
    }

    /// A random client context from small pools, so that many contexts share a key.
    static func context(_ rng: inout SplitMix64) -> ClientContext {
        var context = ClientContext(
            platform: rng.chance(0.15) ? nil : pick(Platform.allCases, &rng),
            osVersion: rng.chance(0.15) ? nil : SemanticVersion(pick(versions, &rng)),
            appVersion: rng.chance(0.15) ? nil : SemanticVersion(pick(appVersions, &rng)),
            locale: rng.chance(0.5)
                ? nil : pick(["en", "fr", "fr-CA", "fr-BE", "ja-JP", "zh-TW", "zh-Hans", "pt", "es", "x"], &rng),
            acceptLanguage: rng.chance(0.4)
                ? nil : pick(["fr-FR, en;q=0.5", "ja", "de-AT", "zh-Hant-HK", "es, pt-BR;q=0.8", "en-GB", "*"], &rng),
            installId: rng.chance(0.15) ? pick([nil, ""], &rng) : "install-\(rng.below(16))")
        if let tier = pick(["free", "pro", "team", nil], &rng) {
            try! context.attributes.set("tier", to: .string(tier))
        }
        return context
    }

    @Test func equalKeysGiveIdenticalResolvedPolicies() throws {
        var rng = SplitMix64(state: 0x5EED_4E5_0001)
        var pairs = 0
        var distinctContexts = 0
        var usage = (os: 0, app: 0, locales: 0, experiments: 0, audiences: 0, rolloutRules: 0)
        var rejected: [String] = []
        for _ in 0..<40 {
            let document = Self.document(&rng, rejected: &rejected)
            let shape = ResolutionKeyShape(document)
            if shape.usesOSVersion { usage.os += 1 }
            if shape.usesAppVersion { usage.app += 1 }
            if shape.usesPreferredLocale { usage.locales += 1 }
            if !shape.experiments.isEmpty { usage.experiments += 1 }
            if shape.experiments.contains(where: { $0.condition != nil }) { usage.audiences += 1 }
            if document.jsonValue.serialized().contains("-audience\"") { usage.rolloutRules += 1 }
            var groups: [ResolutionKey: [ClientContext]] = [:]
            for _ in 0..<600 {
                let context = Self.context(&rng)
                groups[ResolutionKey(context: context, shape: shape), default: []].append(context)
            }
            for (key, contexts) in groups where contexts.count > 1 {
                let first = PolicyResolver.resolve(document, context: contexts[0]).jsonValue.serializedBytes()
                for other in contexts.dropFirst() {
                    let bytes = PolicyResolver.resolve(document, context: other).jsonValue.serializedBytes()
                    if bytes != first {
                        Issue.record(
                            """
                            Equal keys, different policies: \(key)
                              \(contexts[0])
                              \(other)
                            """)
                        return
                    }
                }
                pairs += contexts.count * (contexts.count - 1) / 2
                distinctContexts += Set(contexts).count - 1
            }
        }
        // The property was checked on many pairs, and on documents that use every input.
        #expect(pairs > 5_000, "\(pairs) pairs")
        #expect(distinctContexts > 1_000, "\(distinctContexts) contexts sharing a key with a different one")
        #expect(usage.os > 10 && usage.app > 10 && usage.locales > 10 && usage.experiments > 10, "\(usage)")
        #expect(usage.audiences > 5 && usage.rolloutRules > 5, "\(usage)")
        // Most generated documents are valid: the generator is not testing nothing.
        #expect(rejected.count < 80, "rejected: \(rejected.prefix(5))")
    }
}
