/// Checks a policy document and reports every problem at once, each with a JSON pointer, a stable code and a sentence.
///
/// Rules (docs/policy.md lists them with their codes):
/// - structure: JSON types, unknown members, required members, enumeration names, locale tags, version ranges;
/// - `schemaVersion` is 1; `app.id` uses letters, digits, ".", "-", "_" (1 to 128);
/// - strategies the feature cannot do (`button` without a system button, `permissionless` without a
///   permissionless path, either in `defaults`), and targeting rules that choose
///   `button` only for OS versions older than the button;
/// - partial statuses the feature never reports and actions the status does not allow;
/// - cadence in range (minIntervalHours 0...8760, backoff 1...10, maxShows 0...20), on tracking only `prime`
///   (no `settings` behaviour either); Settings delay 0...10000 ms;
/// - copy: no empty texts, only known placeholders (``allowedPlaceholders``), and in the default locale every
///   text of every screen the engine can choose with the strategy, style and partial actions set (`unsupported`
///   when the device may lack the feature or the feature is newer than `app.minimumOS`), for the feature itself
///   and for each targeting rule and variant;
/// - names: rule names unique per feature, experiment keys unique, variant names unique per experiment;
/// - experiments: on a configured feature, one per feature, coverage 0...1, at least one variant, weights
///   0...100 summing to 100;
/// - every stored string (values and member names): no control characters or noncharacters (``StoredText``),
///   a line feed allowed only in copy messages.
public enum PolicyValidator {
    /// The version of what accepting a stored revision means in this build: the rules below, which of their
    /// breaches a stored revision may carry (``StoredPolicyReader/servableCodes``) and the canonical form a revision
    /// is stored in (`PolicyDocument.jsonValue.serializedBytes()`).
    ///
    /// Each revision this build writes after validating it records this number (`policy_revisions.rules_version`,
    /// migration 0015); a later start-up of a build with the same number reads that revision without validating it
    /// again (``StoredPolicyReader/readAccepted(bytes:)``, docs/storage.md "Start-up"). **Add one whenever a rule is
    /// added, removed or changed, ``StoredPolicyReader/servableCodes`` changes or the canonical form changes**, so
    /// that revisions accepted under the old rules are validated again at the next start-up and their findings
    /// reported. `PolicyRulesVersionTests` fingerprints all three and fails until the number is raised and the new
    /// fingerprint recorded beside it.
    public static let rulesVersion = 2

    /// The placeholders copy may use.
    public static let allowedPlaceholders: Set<String> = ["appName"]

    /// Parses and validates UTF-8 JSON text.
    ///
    /// - Parameter unknownMembers: ``UnknownMembers/refused`` (the default) for what is published or stored;
    ///   ``UnknownMembers/skippedInExperiments`` for a client reading what a newer server serves.
    public static func validate(bytes: [UInt8], unknownMembers: UnknownMembers = .refused) -> PolicyValidation {
        do {
            return validate(try JSONValue(parsing: bytes), unknownMembers: unknownMembers)
        } catch {
            return PolicyValidation(
                document: nil, problems: [ValidationProblem(.root, .invalidJSON, "\(error.description).")])
        }
    }

    /// Parses and validates JSON text.
    public static func validate(text: String) -> PolicyValidation {
        validate(bytes: Array(text.utf8))
    }

    /// Decodes and validates a JSON value: structural and semantic problems together.
    ///
    /// - Parameter unknownMembers: as for ``validate(bytes:unknownMembers:)``.
    public static func validate(_ json: JSONValue, unknownMembers: UnknownMembers = .refused) -> PolicyValidation {
        let (document, structural) = PolicyDocument.decode(json, unknownMembers: unknownMembers)
        // Semantic checks run on the best-effort document too, so one round trip shows everything. The canonical
        // form they check the stored strings of is built once and handed to the caller with a valid document.
        let canonical = document.jsonValue
        var semantic = problems(of: document, canonical: canonical)
        // A missing or malformed app id is already reported structurally.
        let appPointers: Set<JSONPointer> = [
            .root, JSONPointer.root.appending("app"), JSONPointer.root.appending("app", "id"),
        ]
        if structural.contains(where: { appPointers.contains($0.pointer) }) {
            semantic.removeAll { $0.code == .invalidAppId }
        }
        return PolicyValidation(
            document: document, problems: unique(structural + semantic), canonicalJSON: canonical)
    }

    /// The semantic problems of a decoded (or programmatically built) document.
    public static func validate(_ document: PolicyDocument) -> [ValidationProblem] {
        problems(of: document, canonical: document.jsonValue)
    }

    /// The semantic problems of `document`, whose canonical form (`document.jsonValue`) is `canonical`.
    private static func problems(of document: PolicyDocument, canonical: JSONValue) -> [ValidationProblem] {
        var checker = Checker(document: document)
        checker.run(canonical: canonical)
        return checker.problems.sorted()
    }

    private static func unique(_ problems: [ValidationProblem]) -> [ValidationProblem] {
        var seen: Set<ValidationProblem> = []
        return problems.filter { seen.insert($0).inserted }
    }
}

private struct Checker {
    let document: PolicyDocument
    var problems: [ValidationProblem] = []

    init(document: PolicyDocument) { self.document = document }

    mutating func report(_ pointer: JSONPointer, _ code: ValidationProblem.Code, _ message: String) {
        problems.append(ValidationProblem(pointer, code, message))
    }

    /// Every check; `canonical` is `document.jsonValue`.
    mutating func run(canonical: JSONValue) {
        let root = JSONPointer.root
        if document.schemaVersion != PolicySchema.currentVersion {
            report(
                root.appending("schemaVersion"), .unsupportedSchemaVersion,
                "schemaVersion \(document.schemaVersion) is not supported; this build reads \(PolicySchema.currentVersion)."
            )
        }
        checkAppId(document.app.id, at: root.appending("app", "id"))
        if document.app.name.allSatisfy(\.isWhitespace), !document.app.id.isEmpty {
            report(root.appending("app", "name"), .invalidValue, "app.name must not be empty; it fills {appName}.")
        }
        checkOverride(document.defaults, feature: nil, at: root.appending("defaults"))
        for policy in document.orderedFeatures {
            checkFeature(policy, at: root.appending("features", policy.feature.rawValue))
        }
        checkExperiments(at: root.appending("experiments"))
        checkStoredStrings(canonical, at: root)
    }

    /// Every string the document stores (values and member names), in its canonical form: no control characters
    /// or noncharacters (``StoredText``); a line feed only in copy messages and the Markdown tracking purpose string.
    ///
    /// Walks with one token stack (`tokens`, the pointer of `value`), making a ``JSONPointer`` only for a problem:
    /// every stored revision is checked again at start-up, so this walk is on the path to ready.
    mutating func checkStoredStrings(_ value: JSONValue, at pointer: JSONPointer) {
        var tokens = pointer.tokens
        checkStoredStrings(value, tokens: &tokens)
    }

    private mutating func checkStoredStrings(_ value: JSONValue, tokens: inout [String]) {
        switch value {
        case .string(let text):
            let isMessage = tokens.count >= 4 && tokens[tokens.count - 4] == "copy" && tokens.last == "message"
            // The Markdown tracking string has paragraphs and bullet lists, one per line.
            let isMarkdown =
                tokens.count >= 3 && tokens[tokens.count - 3] == "purposeStrings"
                && tokens.last == PurposeStringKey.trackingMarkdown
            if let problem = StoredText.problem(in: text, allowingNewline: isMessage || isMarkdown) {
                report(JSONPointer(tokens: tokens), .forbiddenCharacter, problem)
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                tokens.append(String(index))
                checkStoredStrings(element, tokens: &tokens)
                tokens.removeLast()
            }
        case .object(let object):
            for (key, member) in object {
                tokens.append(key)
                if let problem = StoredText.problem(in: key, subject: "The member name") {
                    report(JSONPointer(tokens: tokens), .forbiddenCharacter, problem)
                }
                checkStoredStrings(member, tokens: &tokens)
                tokens.removeLast()
            }
        default:
            break
        }
    }

    mutating func checkAppId(_ id: String, at pointer: JSONPointer) {
        if !PolicyValidator.isValidAppId(id) {
            report(pointer, .invalidAppId, "app.id \"\(id)\" must be 1 to 128 letters, digits, \".\", \"-\" or \"_\".")
        }
    }

    // MARK: Features

    mutating func checkFeature(_ policy: FeaturePolicy, at pointer: JSONPointer) {
        let feature = policy.feature
        checkOverride(policy.settings, feature: feature, at: pointer)
        var names: Set<String> = []
        for (index, rule) in policy.targeting.enumerated() {
            let rulePointer = pointer.appending("targeting").appending(index)
            if rule.name.allSatisfy(\.isWhitespace) {
                report(rulePointer.appending("name"), .emptyName, "A targeting rule name must not be empty.")
            } else if !names.insert(rule.name).inserted {
                report(
                    rulePointer.appending("name"), .duplicateRuleName,
                    "Another targeting rule of \(feature) is already named \"\(rule.name)\".")
            }
            checkOverride(rule.set, feature: feature, at: rulePointer.appending("set"))
            checkButtonOS(rule, feature: feature, at: rulePointer)
        }

        // Required copy in the default locale, for the feature and for each rule and variant that changes it.
        let base = document.defaults.merging(policy.settings)
        let baseMissing = missingCopy(base, feature: feature)
        reportMissing(baseMissing, at: pointer.appending("copy"), context: "\(feature)")
        for (index, rule) in policy.targeting.enumerated() {
            let missing = missingCopy(base.merging(rule.set), feature: feature).subtracting(baseMissing)
            let at = pointer.appending("targeting").appending(index).appending("set", "copy")
            reportMissing(missing, at: at, context: "\(feature) with targeting rule \"\(rule.name)\"")
        }
        for (experimentIndex, experiment) in document.experiments.enumerated() where experiment.feature == feature {
            for (variantIndex, variant) in experiment.variants.enumerated() {
                let missing = missingCopy(base.merging(variant.set), feature: feature).subtracting(baseMissing)
                let at = JSONPointer.root.appending("experiments").appending(experimentIndex)
                    .appending("variants").appending(variantIndex).appending("set", "copy")
                reportMissing(missing, at: at, context: "\(feature) in variant \"\(variant.name)\"")
            }
        }
    }

    /// The texts a configuration needs in the default locale and does not have.
    func missingCopy(_ settings: FeatureOverride, feature: Feature) -> Set<CopyKey> {
        let capabilities = feature.capabilities
        var required: [CopyKey] = []
        let strategy = settings.strategy ?? .prime
        // `button` and `permissionless` fall back to `prime` on an OS without the button or path (or an unknown
        // OS), so they need the priming texts too.
        if strategy == .prime || strategy == .button || strategy == .permissionless {
            required += [CopyKey(.prime, .title), CopyKey(.prime, .message), CopyKey(.prime, .continueLabel)]
            if settings.style == .twoButton { required.append(CopyKey(.prime, .cancelLabel)) }
        }
        let partialActions = Set(capabilities.partialStatuses.compactMap { settings.partial[$0] })
        // The caption sits beside ContactAccessButton / LocationButton, chosen by strategy or by a partial grant.
        if (strategy == .button && capabilities.button != nil) || partialActions.contains(.contactAccessButton) {
            required.append(CopyKey(.button, .caption))
        }
        if !capabilities.asksOnce {
            required += [
                CopyKey(.settings, .title), CopyKey(.settings, .message), CopyKey(.settings, .openLabel),
                CopyKey(.settings, .cancelLabel),
            ]
        }
        required += [CopyKey(.denied, .title), CopyKey(.denied, .message)]
        if capabilities.reports(.restricted) {
            required += [CopyKey(.restricted, .title), CopyKey(.restricted, .message)]
        }
        // `unsupported` is shown when the device lacks the hardware or source, and when the OS predates the
        // feature's API: a feature introduced after the app's lowest OS (`app.minimumOS`, default iOS 12).
        if capabilities.mayBeUnavailable || capabilities.introduced > document.app.effectiveMinimumOS {
            required += [CopyKey(.unsupported, .title), CopyKey(.unsupported, .message)]
        }
        // The upgrade screen carries the upgrade prompt and the words around a limited-access picker.
        if partialActions.contains(.upgrade) || partialActions.contains(.limitedPicker) {
            required += [CopyKey(.upgrade, .title), CopyKey(.upgrade, .message), CopyKey(.upgrade, .continueLabel)]
        }
        let given = settings.copy[document.app.defaultLocale]?.texts ?? [:]
        return Set(required.filter { given[$0] == nil })
    }

    mutating func reportMissing(_ missing: Set<CopyKey>, at copyPointer: JSONPointer, context: String) {
        let locale = document.app.defaultLocale.description
        for key in missing.sorted() {
            report(
                copyPointer.appending(locale, key.screen.rawValue, key.field.rawValue), .missingCopy,
                "\(context) needs the text \(key) in the default locale \(locale) (here, on the feature, or in defaults)."
            )
        }
    }

    mutating func checkButtonOS(_ rule: TargetingRule, feature: Feature, at pointer: JSONPointer) {
        guard rule.set.strategy == .button, let button = feature.capabilities.button, let range = rule.when.os else {
            return
        }
        // The range admits some version at or after the button's? Probe every minor of the next 40 majors.
        let since = button.since
        var probes = [since]
        for major in since.major..<(since.major + 40) {
            for minor in 0...9 { probes.append(SemanticVersion(major: major, minor: minor)) }
        }
        if !probes.contains(where: { $0 >= since && range.contains($0) }) {
            report(
                pointer.appending("set", "strategy"), .strategyNeedsNewerOS,
                "\(button.kind) needs iOS \(since.major).\(since.minor) or later, but this rule only matches os \"\(range)\"."
            )
        }
    }

    // MARK: Overrides

    mutating func checkOverride(_ settings: FeatureOverride, feature: Feature?, at pointer: JSONPointer) {
        if settings.strategy == .permissionless {
            if let feature, feature.capabilities.permissionless == nil {
                report(
                    pointer.appending("strategy"), .unsupportedStrategy,
                    "\(feature) has no permissionless path; \"permissionless\" is for "
                        + Feature.allCases.filter { $0.capabilities.permissionless != nil }.map(\.rawValue)
                        .joined(separator: ", ") + " (docs/catalogue.md).")
            } else if feature == nil {
                report(
                    pointer.appending("strategy"), .unsupportedStrategy,
                    "\"permissionless\" depends on the feature's path; set it on features, not in defaults.")
            }
        }
        if settings.strategy == .direct, let feature, feature.capabilities.kind == .appConsent {
            report(
                pointer.appending("strategy"), .unsupportedStrategy,
                "\(feature) is an app-level consent: there is no system prompt to ask directly; its screen (the "
                    + "priming screen) is the request, so use \"prime\".")
        }
        if settings.strategy == .button {
            if let feature, feature.capabilities.button == nil {
                report(
                    pointer.appending("strategy"), .unsupportedStrategy,
                    "\(feature) has no system button; use \"prime\" or \"direct\".")
            } else if feature == nil {
                report(
                    pointer.appending("strategy"), .unsupportedStrategy,
                    "\"button\" exists only for contacts and locationWhenInUse; set it on those features, not in defaults."
                )
            }
        }
        if let feature, feature.capabilities.asksOnce {
            // The priming screen may come back (TR-1 in docs/decisions.md); the system alert never does.
            for kind in CadenceKind.allCases where kind != .prime && settings.cadence[kind] != nil {
                report(
                    pointer.appending("cadence", kind.rawValue), .cadenceNotAllowed,
                    "\(feature) has no \(kind) cadence: the system asks once per install, so there is no Settings "
                        + "nudge or upgrade to repeat; only cadence.prime applies.")
            }
            if settings.settingsDelayMs != nil || settings.settingsLeaveScreenFirst != nil {
                report(
                    pointer.appending("settings"), .settingsNotAllowed,
                    "\(feature) never shows the Settings nudge (the system asks once per install), so settings has no effect."
                )
            }
        }
        for kind in CadenceKind.allCases {
            guard let rule = settings.cadence[kind] else { continue }
            let rulePointer = pointer.appending("cadence", kind.rawValue)
            if let value = rule.minIntervalHours, !CadenceRule.minIntervalRange.contains(value) {
                report(
                    rulePointer.appending("minIntervalHours"), .cadenceOutOfRange,
                    "minIntervalHours must be between 0 and 8760 (a year); found \(JSONValue.number(value)).")
            }
            if let value = rule.backoff, !CadenceRule.backoffRange.contains(value) {
                report(
                    rulePointer.appending("backoff"), .cadenceOutOfRange,
                    "backoff must be between 1 and 10; found \(JSONValue.number(value)).")
            }
            if let value = rule.maxShows, !CadenceRule.maxShowsRange.contains(value) {
                report(
                    rulePointer.appending("maxShows"), .cadenceOutOfRange,
                    "maxShows must be between 0 and 20; found \(value).")
            }
        }
        if let delay = settings.settingsDelayMs, !SettingsBehaviour.delayRange.contains(delay) {
            report(
                pointer.appending("settings", "delayMs"), .settingsOutOfRange,
                "delayMs must be between 0 and 10000; found \(delay).")
        }
        checkPartialActions(settings.partial, feature: feature, override: pointer)
        checkCopyTexts(settings.copy, override: pointer)
    }

    /// The `partial` actions of the override at `pointer`: each for a partial status the feature reports, and
    /// possible for it; in defaults (no feature) only the actions every feature has.
    private mutating func checkPartialActions(
        _ partial: [AuthorizationStatus: PartialAction], feature: Feature?, override pointer: JSONPointer
    ) {
        for status in AuthorizationStatus.allCases {
            guard let action = partial[status] else { continue }
            let statusPointer = pointer.appending("partial", status.rawValue)
            if let feature {
                let capabilities = feature.capabilities
                if !capabilities.reports(status) {
                    let reported = capabilities.partialStatuses
                    let hint =
                        reported.isEmpty
                        ? "it reports no partial grant" : "it reports \(PolicyDocumentDecoder.list(reported))"
                    report(statusPointer, .unsupportedPartialStatus, "\(feature) never reports \(status); \(hint).")
                } else if !capabilities.partialActions(for: status).contains(action) {
                    report(
                        statusPointer, .unsupportedPartialAction,
                        "\(action) is not possible for \(feature) \(status); use \(PolicyDocumentDecoder.list(capabilities.partialActions(for: status)))."
                    )
                }
            } else if action != .proceed && action != .upgrade {
                report(
                    statusPointer, .unsupportedPartialAction,
                    "\(action) is specific to one feature; in defaults use \"proceed\" or \"upgrade\".")
            }
        }
    }

    /// The `copy` texts of the override at `pointer`: none empty, every brace paired, only known placeholders.
    private mutating func checkCopyTexts(_ copy: [LocaleTag: CopySet], override pointer: JSONPointer) {
        for locale in copy.keys.sorted(by: { $0.description < $1.description }) {
            for (key, text) in copy[locale]!.texts.sorted(by: { $0.key < $1.key }) {
                let empty = text.allSatisfy(\.isWhitespace)
                let (names, unpaired) = Placeholder.inspect(text)
                let unknown = names.filter { !PolicyValidator.allowedPlaceholders.contains($0) }
                // The pointer is made only for a text with a problem (most have none).
                guard empty || unpaired || !unknown.isEmpty else { continue }
                let textPointer = pointer.appending("copy", locale.description, key.screen.rawValue, key.field.rawValue)
                if empty {
                    report(textPointer, .emptyCopy, "The text \(key) must not be empty.")
                }
                if unpaired {
                    report(
                        textPointer, .malformedPlaceholder,
                        "The text \(key) has an unpaired brace; write {appName} for a placeholder and {{ or }} for a literal brace."
                    )
                }
                for name in unknown {
                    let allowed = PolicyValidator.allowedPlaceholders.sorted().map { "{\($0)}" }.joined(separator: ", ")
                    report(textPointer, .unknownPlaceholder, "{\(name)} is not a known placeholder; use \(allowed).")
                }
            }
        }
    }

    // MARK: Experiments

    mutating func checkExperiments(at pointer: JSONPointer) {
        var keys: Set<String> = []
        var features: Set<Feature> = []
        for (index, experiment) in document.experiments.enumerated() {
            let at = pointer.appending(index)
            if experiment.key.allSatisfy(\.isWhitespace) {
                report(at.appending("key"), .emptyName, "An experiment key must not be empty.")
            } else if !keys.insert(experiment.key).inserted {
                report(
                    at.appending("key"), .duplicateExperimentKey,
                    "Another experiment already has the key \"\(experiment.key)\".")
            }
            if document.features[experiment.feature] == nil {
                report(
                    at.appending("feature"), .experimentUnknownFeature,
                    "\(experiment.feature) is not configured under features, so there is nothing to vary.")
            } else if !features.insert(experiment.feature).inserted {
                report(
                    at.appending("feature"), .duplicateExperimentFeature,
                    "Another experiment already tests \(experiment.feature); run one experiment per feature at a time.")
            }
            if !(0...1).contains(experiment.coverage) {
                report(
                    at.appending("coverage"), .coverageOutOfRange,
                    "coverage is the enrolled fraction, between 0 and 1; found \(JSONValue.number(experiment.coverage))."
                )
            }
            if let alpha = experiment.alpha, !Experiment.isValidAlpha(alpha) {
                report(
                    at.appending("alpha"), .analysisSettingOutOfRange,
                    "alpha is the verdict's significance level, from 0.0001 to 0.2; found \(JSONValue.number(alpha)).")
            }
            if let effect = experiment.minimumEffect, !ExperimentAnalysis.isValidMinimumEffect(effect) {
                report(
                    at.appending("minimumEffect"), .analysisSettingOutOfRange,
                    "minimumEffect \(ExperimentAnalysis.minimumEffectRule); found \(JSONValue.number(effect)).")
            }
            if experiment.variants.isEmpty {
                report(at.appending("variants"), .noVariants, "An experiment needs at least one variant.")
                continue
            }
            var names: Set<String> = []
            var sum = 0.0
            var weightsValid = true
            for (variantIndex, variant) in experiment.variants.enumerated() {
                let variantPointer = at.appending("variants").appending(variantIndex)
                if variant.name.allSatisfy(\.isWhitespace) {
                    report(variantPointer.appending("name"), .emptyName, "A variant name must not be empty.")
                } else if !names.insert(variant.name).inserted {
                    report(
                        variantPointer.appending("name"), .duplicateVariantName,
                        "Another variant of \"\(experiment.key)\" is already named \"\(variant.name)\".")
                }
                if !(0...100).contains(variant.weight) {
                    weightsValid = false
                    report(
                        variantPointer.appending("weight"), .invalidWeight,
                        "A weight is a percentage between 0 and 100; found \(JSONValue.number(variant.weight)).")
                }
                sum += variant.weight
                checkOverride(variant.set, feature: experiment.feature, at: variantPointer.appending("set"))
            }
            if weightsValid, abs(sum - 100) > 1e-9 {
                report(
                    at.appending("variants"), .weightsDoNotSum,
                    "Variant weights are percentages and must sum to 100; they sum to \(JSONValue.number(sum)).")
            }
        }
    }
}

extension PolicyValidator {
    /// Whether `id` is a valid app id: 1 to 128 ASCII letters, digits, ".", "-" or "_".
    public static func isValidAppId(_ id: String) -> Bool {
        let allowed = id.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
        return !id.isEmpty && id.utf8.count <= 128 && allowed
    }
}
