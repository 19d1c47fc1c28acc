/// Reads a `PolicyDocument` from JSON, collecting every structural problem instead of stopping at the first.
///
/// Structural means: JSON types, unknown or missing members, names outside their enumerations, malformed
/// locale tags and version ranges. Value ranges and cross-field rules are ``PolicyValidator``'s job.
/// The document returned is a best effort: members with problems are left out (or given a neutral value).
struct PolicyDocumentDecoder {
    private(set) var problems: [ValidationProblem] = []
    /// Whether unknown members of experiments and variants are problems or skipped.
    var unknownMembers = UnknownMembers.refused
    /// The document's compiled segments, for the conditions of its rules.
    private var segments: [String: Condition] = [:]

    mutating func decode(_ json: JSONValue) -> PolicyDocument {
        let root = JSONPointer.root
        var document = PolicyDocument(app: AppInfo(id: "", name: ""))
        guard let object = object(json, at: root) else { return document }
        checkMembers(
            object, at: root,
            allowed: ["schemaVersion", "app", "attributes", "segments", "defaults", "features", "experiments"])

        if let version = object["schemaVersion"] {
            if let number = integer(version, at: root.appending("schemaVersion")) {
                document.schemaVersion = number
            }
        } else {
            report(
                root.appending("schemaVersion"), .missingMember,
                "schemaVersion is required; this build reads schemaVersion \(PolicySchema.currentVersion).")
        }

        if let app = object["app"] {
            document.app = decodeApp(app, at: root.appending("app"))
        } else {
            report(root.appending("app"), .missingMember, "app is required, with at least an id.")
        }

        if let declared = object["attributes"], let body = self.object(declared, at: root.appending("attributes")) {
            for (name, value) in body {
                let at = root.appending("attributes").appending(name)
                if !ConditionCompiler.isAttributeName(name) || name.hasPrefix("prelude.") {
                    report(
                        at, .invalidCondition,
                        "\"\(name)\" is not an attribute name an app declares: letters, digits, \"_\" and \".\", "
                            + "starting with a letter; prelude.* names are the client's own.")
                }
                if let kind: AttributeKind = enumeration(value, at: at) { document.attributes[name] = kind }
            }
        }

        if let segments = object["segments"], let body = self.object(segments, at: root.appending("segments")) {
            let (compiled, found) = Segment.compileAll(body, at: root.appending("segments"))
            document.segments = compiled
            problems += found
            self.segments = document.segmentsByName
        }

        if let defaults = object["defaults"], let body = self.object(defaults, at: root.appending("defaults")) {
            document.defaults = decodeOverride(body, at: root.appending("defaults"))
        }

        if let features = object["features"], let body = self.object(features, at: root.appending("features")) {
            for (key, value) in body {
                let pointer = root.appending("features").appending(key)
                guard let feature = Feature(rawValue: key) else {
                    let hint =
                        TypoSuggestion.closest(to: key, among: Feature.allCases.map(\.rawValue))
                        .map { " Did you mean \"\($0)\"?" } ?? ""
                    report(
                        pointer, .unknownFeature,
                        "\"\(key)\" is not a known feature;\(hint) known features are \(Self.list(Feature.allCases)).")
                    continue
                }
                guard let entry = self.object(value, at: pointer) else { continue }
                document.features[feature] = decodeFeature(feature, entry, at: pointer)
            }
        }

        if let experiments = object["experiments"], let list = array(experiments, at: root.appending("experiments")) {
            for (index, value) in list.enumerated() {
                let pointer = root.appending("experiments").appending(index)
                if let experiment = decodeExperiment(value, at: pointer) { document.experiments.append(experiment) }
            }
        }
        return document
    }

    // MARK: - Parts

    private mutating func decodeApp(_ value: JSONValue, at pointer: JSONPointer) -> AppInfo {
        var app = AppInfo(id: "", name: "")
        guard let object = object(value, at: pointer) else { return app }
        checkMembers(object, at: pointer, allowed: ["id", "name", "defaultLocale", "minimumOS"])
        if let id = object["id"] {
            app.id = string(id, at: pointer.appending("id")) ?? ""
        } else {
            report(pointer.appending("id"), .missingMember, "app.id is required.")
        }
        if let name = object["name"] {
            app.name = string(name, at: pointer.appending("name")) ?? ""
        } else {
            // A short document may leave the name out; {appName} then shows the id.
            app.name = app.id
        }
        if let locale = object["defaultLocale"], let tag = localeTag(locale, at: pointer.appending("defaultLocale")) {
            app.defaultLocale = tag
        }
        if let value = object["minimumOS"], let text = string(value, at: pointer.appending("minimumOS")) {
            if let version = SemanticVersion(text), version.preRelease.isEmpty, version.build.isEmpty {
                app.minimumOS = version
            } else {
                report(
                    pointer.appending("minimumOS"), .invalidVersion,
                    "\"\(text)\" is not an OS version; write the deployment target, e.g. \"15.0\".")
            }
        }
        return app
    }

    private mutating func decodeFeature(_ feature: Feature, _ object: JSONObject, at pointer: JSONPointer)
        -> FeaturePolicy
    {
        var policy = FeaturePolicy(feature: feature)
        policy.settings = decodeOverride(object, at: pointer, extraMembers: ["targeting", "access", "purposeStrings"])
        if let strings = object["purposeStrings"] {
            policy.purposeStrings = decodePurposeStrings(strings, at: pointer.appending("purposeStrings"))
        }
        if let access = object["access"] {
            let decoded = FeatureAccess.decode(access, feature: feature, at: pointer.appending("access"))
            policy.access = decoded.access
            problems += decoded.problems
        }
        if let targeting = object["targeting"], let rules = array(targeting, at: pointer.appending("targeting")) {
            for (index, value) in rules.enumerated() {
                let rulePointer = pointer.appending("targeting").appending(index)
                guard let rule = self.object(value, at: rulePointer) else { continue }
                checkMembers(rule, at: rulePointer, allowed: ["name", "when", "set"])
                var decoded = TargetingRule(name: "")
                if let name = rule["name"] {
                    decoded.name = string(name, at: rulePointer.appending("name")) ?? ""
                } else {
                    report(rulePointer.appending("name"), .missingMember, "A targeting rule needs a name.")
                }
                if let when = rule["when"], let condition = self.object(when, at: rulePointer.appending("when")) {
                    decoded.when = decodeCondition(condition, at: rulePointer.appending("when"))
                }
                if let set = rule["set"], let body = self.object(set, at: rulePointer.appending("set")) {
                    decoded.set = decodeOverride(body, at: rulePointer.appending("set"))
                } else if rule["set"] == nil {
                    report(
                        rulePointer.appending("set"), .missingMember,
                        "A targeting rule needs a set object with what it changes.")
                }
                policy.targeting.append(decoded)
            }
        }
        return policy
    }

    private mutating func decodeCondition(_ object: JSONObject, at pointer: JSONPointer) -> TargetingCondition {
        checkMembers(
            object, at: pointer,
            allowed: ["platform", "os", "appVersion", "locales", "region", "ageRange", "condition"])
        var condition = TargetingCondition()
        if let source = object["condition"] {
            condition.condition = compileCondition(source, at: pointer.appending("condition"))
        }
        if let platform = object["platform"] {
            // One platform as a string, or several as an array.
            let values: [(JSONValue, JSONPointer)]
            if case .array(let list) = platform {
                values = list.enumerated().map { ($1, pointer.appending("platform").appending($0)) }
            } else {
                values = [(platform, pointer.appending("platform"))]
            }
            for (value, at) in values {
                if let parsed: Platform = enumeration(value, at: at) { condition.platforms.append(parsed) }
            }
        }
        if let os = object["os"] { condition.os = versionRange(os, at: pointer.appending("os")) }
        if let app = object["appVersion"] {
            condition.appVersion = versionRange(app, at: pointer.appending("appVersion"))
        }
        if let locales = object["locales"], let list = array(locales, at: pointer.appending("locales")) {
            for (index, value) in list.enumerated() {
                if let tag = localeTag(value, at: pointer.appending("locales").appending(index)) {
                    condition.locales.append(tag)
                }
            }
        }
        if let regions = object["region"], let list = array(regions, at: pointer.appending("region")) {
            for (index, value) in list.enumerated() {
                let at = pointer.appending("region").appending(index)
                guard let text = string(value, at: at) else { continue }
                if StorefrontRegion.groups[text] != nil {
                    condition.regions.append(text)
                } else if let region = StorefrontRegion(text), region.code == text {
                    condition.regions.append(region.code)
                } else {
                    report(
                        at, .invalidValue,
                        "Expected a storefront country as StoreKit reports it (ISO 3166-1 alpha-3, upper case, such as"
                            + " \"FRA\") or a group: " + StorefrontRegion.groups.keys.sorted().joined(separator: ", ")
                            + ".")
                }
            }
        }
        if let ageRange = object["ageRange"], let text = string(ageRange, at: pointer.appending("ageRange")) {
            if let parsed = AgeCondition(text) {
                condition.ageRange = parsed
            } else {
                report(
                    pointer.appending("ageRange"), .invalidValue,
                    "Expected \">=N\" (the declared band is N or older) or \"<N\" (younger than N), N from 1 to 150.")
            }
        }
        return condition
    }

    /// Compiles a condition written at `pointer` against the document's segments, its problems under `pointer`.
    private mutating func compileCondition(_ source: JSONValue, at pointer: JSONPointer) -> Condition {
        let (compiled, found) = Condition.compile(source, segments: segments)
        problems += found.map {
            ValidationProblem(JSONPointer(tokens: pointer.tokens + $0.pointer.tokens), $0.code, $0.message)
        }
        return compiled
    }

    private mutating func decodeExperiment(_ value: JSONValue, at pointer: JSONPointer) -> Experiment? {
        guard let object = object(value, at: pointer) else { return nil }
        if unknownMembers == .refused {
            checkMembers(
                object, at: pointer,
                allowed: ["key", "feature", "seed", "coverage", "condition", "variants", "alpha", "minimumEffect"])
        }
        var key = ""
        if let value = object["key"] {
            key = string(value, at: pointer.appending("key")) ?? ""
        } else {
            report(pointer.appending("key"), .missingMember, "An experiment needs a key.")
        }
        var feature: Feature?
        if let value = object["feature"] {
            if let name = string(value, at: pointer.appending("feature")) {
                feature = Feature(rawValue: name)
                if feature == nil {
                    report(
                        pointer.appending("feature"), .experimentUnknownFeature,
                        "\"\(name)\" is not a known feature; known features are \(Self.list(Feature.allCases)).")
                }
            }
        } else {
            report(pointer.appending("feature"), .missingMember, "An experiment needs the feature it tests.")
        }
        var experiment = Experiment(key: key, feature: feature ?? .camera, variants: [])
        if let seed = object["seed"] { experiment.seed = string(seed, at: pointer.appending("seed")) }
        if let coverage = object["coverage"], let number = number(coverage, at: pointer.appending("coverage")) {
            experiment.coverage = number
        }
        if let source = object["condition"] {
            experiment.condition = compileCondition(source, at: pointer.appending("condition"))
        }
        if let alpha = object["alpha"] { experiment.alpha = number(alpha, at: pointer.appending("alpha")) }
        if let effect = object["minimumEffect"] {
            experiment.minimumEffect = number(effect, at: pointer.appending("minimumEffect"))
        }
        if let variants = object["variants"], let list = array(variants, at: pointer.appending("variants")) {
            for (index, value) in list.enumerated() {
                let variantPointer = pointer.appending("variants").appending(index)
                guard let variant = self.object(value, at: variantPointer) else { continue }
                if unknownMembers == .refused {
                    checkMembers(variant, at: variantPointer, allowed: ["name", "weight", "set"])
                }
                var decoded = Variant(name: "", weight: 0)
                if let name = variant["name"] {
                    decoded.name = string(name, at: variantPointer.appending("name")) ?? ""
                } else {
                    report(variantPointer.appending("name"), .missingMember, "A variant needs a name.")
                }
                if let weight = variant["weight"] {
                    decoded.weight = number(weight, at: variantPointer.appending("weight")) ?? 0
                } else {
                    report(
                        variantPointer.appending("weight"), .missingMember,
                        "A variant needs a weight (percent of enrolled installs).")
                }
                if let set = variant["set"], let body = self.object(set, at: variantPointer.appending("set")) {
                    decoded.set = decodeOverride(body, at: variantPointer.appending("set"))
                }
                experiment.variants.append(decoded)
            }
        } else if object["variants"] == nil {
            report(pointer.appending("variants"), .missingMember, "An experiment needs variants.")
        }
        // An experiment on an unknown feature is reported above and dropped.
        return feature == nil ? nil : experiment
    }

    /// `{"en": {"NSUserTrackingUsageDescription": "…"}, …}`: locales, then known purpose-string keys with text.
    private mutating func decodePurposeStrings(_ value: JSONValue, at pointer: JSONPointer) -> [LocaleTag: [String:
        String]]
    {
        guard let byLocale = object(value, at: pointer) else { return [:] }
        var result: [LocaleTag: [String: String]] = [:]
        for (name, stringsValue) in byLocale {
            let localePointer = pointer.appending(name)
            guard let locale = localeTag(.string(name), at: localePointer),
                let strings = object(stringsValue, at: localePointer)
            else { continue }
            var decoded: [String: String] = [:]
            for (key, text) in strings {
                guard PurposeStringKey.known.contains(key) else {
                    report(
                        localePointer.appending(key), .unknownMember,
                        "\(key) is not a known purpose-string key; check its spelling against Apple's list.")
                    continue
                }
                if let text = string(text, at: localePointer.appending(key)) { decoded[key] = text }
            }
            result[locale] = decoded
        }
        return result
    }

    mutating func decodeOverride(_ object: JSONObject, at pointer: JSONPointer, extraMembers: [String] = [])
        -> FeatureOverride
    {
        checkMembers(
            object, at: pointer,
            allowed: ["strategy", "style", "ask", "cadence", "settings", "partial", "copy"] + extraMembers)
        var result = FeatureOverride()
        if let value = object["ask"] {
            let (rule, found) = AskRule.decode(value, at: pointer.appending("ask"), segments: segments)
            result.ask = rule
            problems += found
        }
        if let value = object["strategy"] { result.strategy = enumeration(value, at: pointer.appending("strategy")) }
        if let value = object["style"] { result.style = enumeration(value, at: pointer.appending("style")) }
        if let value = object["cadence"], let cadence = self.object(value, at: pointer.appending("cadence")) {
            result.cadence = decodeCadenceOverrides(cadence, at: pointer.appending("cadence"))
        }
        if let value = object["settings"], let settings = self.object(value, at: pointer.appending("settings")) {
            checkMembers(settings, at: pointer.appending("settings"), allowed: ["delayMs", "leaveScreenFirst"])
            if let v = settings["delayMs"] {
                result.settingsDelayMs = integer(v, at: pointer.appending("settings", "delayMs"))
            }
            if let v = settings["leaveScreenFirst"] {
                result.settingsLeaveScreenFirst = bool(v, at: pointer.appending("settings", "leaveScreenFirst"))
            }
        }
        if let value = object["partial"], let partial = self.object(value, at: pointer.appending("partial")) {
            for (key, actionValue) in partial {
                let statusPointer = pointer.appending("partial").appending(key)
                guard let status = AuthorizationStatus(rawValue: key), status.isPartial else {
                    let partials = AuthorizationStatus.allCases.filter(\.isPartial)
                    report(
                        statusPointer, .unknownMember,
                        "\"\(key)\" is not a partial-grant status; use \(Self.list(partials)).")
                    continue
                }
                if let action: PartialAction = enumeration(actionValue, at: statusPointer) {
                    result.partial[status] = action
                }
            }
        }
        if let value = object["copy"], let copy = self.object(value, at: pointer.appending("copy")) {
            result.copy = decodeCopyOverrides(copy, at: pointer.appending("copy"))
        }
        return result
    }

    /// An override's `cadence` object (at `pointer`): a rule override per cadence kind.
    private mutating func decodeCadenceOverrides(_ cadence: JSONObject, at pointer: JSONPointer)
        -> [CadenceKind: CadenceRuleOverride]
    {
        var overrides: [CadenceKind: CadenceRuleOverride] = [:]
        for (key, ruleValue) in cadence {
            let rulePointer = pointer.appending(key)
            guard let kind = member(key, as: CadenceKind.self, at: rulePointer, "a cadence kind") else { continue }
            guard let rule = self.object(ruleValue, at: rulePointer) else { continue }
            checkMembers(rule, at: rulePointer, allowed: ["minIntervalHours", "backoff", "maxShows"])
            var decoded = CadenceRuleOverride()
            if let v = rule["minIntervalHours"] {
                decoded.minIntervalHours = number(v, at: rulePointer.appending("minIntervalHours"))
            }
            if let v = rule["backoff"] { decoded.backoff = number(v, at: rulePointer.appending("backoff")) }
            if let v = rule["maxShows"] { decoded.maxShows = integer(v, at: rulePointer.appending("maxShows")) }
            overrides[kind] = decoded
        }
        return overrides
    }

    /// `key` as a case of `T`, or nil after reporting at `pointer` that it is not `what` ("a cadence kind"), with
    /// the cases to use.
    private mutating func member<T: RawRepresentable & CaseIterable>(
        _ key: String, as type: T.Type, at pointer: JSONPointer, _ what: String
    ) -> T? where T.RawValue == String {
        if let value = T(rawValue: key) { return value }
        report(pointer, .unknownMember, "\"\(key)\" is not \(what); use \(Self.list(T.allCases.map(\.rawValue))).")
        return nil
    }

    /// An override's `copy` object (at `pointer`): a copy set per locale, each locale spelled once.
    private mutating func decodeCopyOverrides(_ copy: JSONObject, at pointer: JSONPointer) -> [LocaleTag: CopySet] {
        var overrides: [LocaleTag: CopySet] = [:]
        for (localeKey, setValue) in copy {
            let localePointer = pointer.appending(localeKey)
            guard let tag = LocaleTag(localeKey) else {
                report(
                    localePointer, .invalidLocale,
                    "\"\(localeKey)\" is not a locale tag of the form language[-Script][-REGION], e.g. zh-Hant-TW.")
                continue
            }
            // "zh-hant" and "zh-Hant" are the same tag; two spellings would silently merge.
            if overrides[tag] != nil {
                report(
                    localePointer, .invalidLocale,
                    "\"\(localeKey)\" is the same locale as another key here (\(tag)); merge the two.")
                continue
            }
            guard let screens = self.object(setValue, at: localePointer) else { continue }
            var set = CopySet()
            for (screenKey, fieldsValue) in screens {
                let screenPointer = localePointer.appending(screenKey)
                guard let screen = member(screenKey, as: CopyScreen.self, at: screenPointer, "a copy screen") else {
                    continue
                }
                guard let fields = self.object(fieldsValue, at: screenPointer) else { continue }
                for (fieldKey, textValue) in fields {
                    let fieldPointer = screenPointer.appending(fieldKey)
                    guard let field = CopyField(rawValue: fieldKey), screen.fields.contains(field) else {
                        report(
                            fieldPointer, .unknownMember,
                            "\"\(fieldKey)\" is not a text of the \(screen) screen; use \(Self.list(screen.fields))."
                        )
                        continue
                    }
                    if let text = string(textValue, at: fieldPointer) { set[screen, field] = text }
                }
            }
            overrides[tag] = set
        }
        return overrides
    }

    // MARK: - Typed reads

    private mutating func report(_ pointer: JSONPointer, _ code: ValidationProblem.Code, _ message: String) {
        problems.append(ValidationProblem(pointer, code, message))
    }

    private mutating func mismatch(_ value: JSONValue, at pointer: JSONPointer, expected: String) {
        report(pointer, .typeMismatch, "Expected \(expected), found \(value.kindName).")
    }

    private mutating func checkMembers(_ object: JSONObject, at pointer: JSONPointer, allowed: [String]) {
        for key in object.keys where !allowed.contains(key) {
            report(
                pointer.appending(key), .unknownMember,
                "Unknown member \"\(key)\"; allowed here: \(allowed.joined(separator: ", ")).")
        }
    }

    private mutating func object(_ value: JSONValue, at pointer: JSONPointer) -> JSONObject? {
        guard case .object(let object) = value else {
            mismatch(value, at: pointer, expected: "an object")
            return nil
        }
        return object
    }

    private mutating func array(_ value: JSONValue, at pointer: JSONPointer) -> [JSONValue]? {
        guard case .array(let array) = value else {
            mismatch(value, at: pointer, expected: "an array")
            return nil
        }
        return array
    }

    private mutating func string(_ value: JSONValue, at pointer: JSONPointer) -> String? {
        guard case .string(let string) = value else {
            mismatch(value, at: pointer, expected: "a string")
            return nil
        }
        return string
    }

    private mutating func bool(_ value: JSONValue, at pointer: JSONPointer) -> Bool? {
        guard case .bool(let bool) = value else {
            mismatch(value, at: pointer, expected: "true or false")
            return nil
        }
        return bool
    }

    private mutating func number(_ value: JSONValue, at pointer: JSONPointer) -> Double? {
        guard let number = value.doubleValue else {
            mismatch(value, at: pointer, expected: "a number")
            return nil
        }
        return number
    }

    private mutating func integer(_ value: JSONValue, at pointer: JSONPointer) -> Int? {
        guard let number = value.intValue else {
            mismatch(value, at: pointer, expected: "a whole number")
            return nil
        }
        return number
    }

    private mutating func enumeration<T: RawRepresentable & CaseIterable>(_ value: JSONValue, at pointer: JSONPointer)
        -> T?
    where T.RawValue == String {
        guard let name = string(value, at: pointer) else { return nil }
        guard let parsed = T(rawValue: name) else {
            report(
                pointer, .invalidValue, "\"\(name)\" is not allowed here; use \(Self.list(T.allCases.map(\.rawValue)))."
            )
            return nil
        }
        return parsed
    }

    private mutating func localeTag(_ value: JSONValue, at pointer: JSONPointer) -> LocaleTag? {
        guard let text = string(value, at: pointer) else { return nil }
        guard let tag = LocaleTag(text) else {
            report(
                pointer, .invalidLocale,
                "\"\(text)\" is not a locale tag of the form language[-Script][-REGION], e.g. zh-Hant-TW.")
            return nil
        }
        return tag
    }

    private mutating func versionRange(_ value: JSONValue, at pointer: JSONPointer) -> VersionRange? {
        guard let text = string(value, at: pointer) else { return nil }
        guard let range = VersionRange(text) else {
            report(
                pointer, .invalidVersionRange,
                "\"\(text)\" is not a version range; write e.g. \">=17\", \">=17.2 <18\" or \"<14 || >=17\".")
            return nil
        }
        return range
    }

    static func list(_ names: [some CustomStringConvertible]) -> String {
        names.map { "\"\($0)\"" }.joined(separator: ", ")
    }
}
