/// Every screen the decision engine can choose, per feature, locale and ``PreviewVariant``, with the words a
/// device gets and the lint findings attached where they apply. Pure: what `prelude policy preview` and the admin
/// preview draw.
///
/// The words come from the real code path, not a copy of it: for each combination a document is derived that
/// forces the layers previewed (no targeting rule but the one shown, the feature's experiment with only the
/// variant shown and full coverage, the others left as written; every locale of the original kept available), it
/// is resolved with ``PolicyResolver`` for an iOS client in that locale, and ``DecisionEngine`` is asked what it
/// shows for one client state per screen:
///
/// | state | screen |
/// |---|---|
/// | device without the hardware (features that may lack it) | `unsupported` |
/// | device older than the feature's API, not older than `app.minimumOS` | `unsupported` |
/// | `restricted` (features that report it) | `restrictedNotice` |
/// | `notDetermined` on a recent OS, and on an unknown OS | `prime` / the system button (the fallback) |
/// | `denied`, nudge never shown | `openSettings` (`deniedScreen` for tracking) |
/// | `denied`, nudge cadence exhausted | `deniedScreen` |
/// | `deniedGlobally` (location: Location Services off device-wide) | `locationServicesOff` |
/// | each partial status the feature reports | `upgrade`, `limitedPicker` or `contactAccessButton` |
///
/// Decisions without a screen (`proceed`, `systemPrompt`, `permissionless` — the system's own picker) draw
/// nothing: an ask-less arm shows the priming screen it falls back to on an unknown OS. A screen reached by two
/// states is listed
/// once. Targeting rules are previewed only when they change what is drawn (copy, style, strategy or partial
/// actions), and only in locales their `when.locales` matches; platform, OS and app version conditions are
/// dropped, since the point is to see the rule's screens.
public enum PreviewCatalogue {
    /// The OS version the preview resolves for: recent enough for every system button and status.
    static let recentOS = SemanticVersion(major: 99)

    /// The order of screens within one feature, locale and variant.
    public static let actionOrder: [DecisionAction] = [
        .prime, .locationButton, .contactAccessButton, .openSettings, .deniedScreen, .restrictedNotice,
        .locationServicesOff, .unsupported, .upgrade, .limitedPicker, .contactAccessPicker,
    ]

    /// The document's locales in preview order: the default locale, then the others by tag.
    public static func locales(of document: PolicyDocument) -> [LocaleTag] {
        locales(available: document.availableLocales, defaultLocale: document.app.defaultLocale)
    }

    private static func locales(available: Set<LocaleTag>, defaultLocale: LocaleTag) -> [LocaleTag] {
        [defaultLocale] + available.subtracting([defaultLocale]).sorted { $0.description < $1.description }
    }

    /// Every screen of `document`, ordered by feature (catalogue order), locale, variant (base, rules, experiment
    /// variants, each in document order) and screen (``actionOrder``), with `findings` (by default
    /// ``CopyLinter/lint(_:)``) attached.
    public static func screens(of document: PolicyDocument, findings: [LintFinding]? = nil) -> [PreviewScreen] {
        var byPointer: [JSONPointer: [LintFinding]] = [:]
        for finding in findings ?? CopyLinter.lint(document) { byPointer[finding.pointer, default: []].append(finding) }
        var screens: [PreviewScreen] = []
        // Computed once per document: per screen it was a third of the preview's time at the size limit.
        let available = document.availableLocales
        let locales = locales(available: available, defaultLocale: document.app.defaultLocale)
        // Each locale's fallback chain, once for every feature and variant.
        let chains = locales.map { locale in
            LocaleResolver.fallbackChain(for: locale, available: available, defaultLocale: document.app.defaultLocale)
        }
        for policy in document.orderedFeatures {
            // The document forced for each variant, once for all locales.
            let forcings = Self.variants(of: policy, in: document).map { variant in
                Forcing(policy, variant: variant, in: document)
            }
            for (locale, chain) in zip(locales, chains) {
                for forcing in forcings {
                    screens += self.screens(
                        of: policy, locale: locale, chain: chain, forcing: forcing, available: available,
                        findings: byPointer)
                }
            }
        }
        return screens
    }

    /// The variants previewed for `policy`: the base, each rule that changes what is drawn, each variant of the
    /// feature's experiment; each labelled with the condition or segment that chooses it and the `ask` rule in
    /// effect over it (the layer's own, else the feature's).
    public static func variants(of policy: FeaturePolicy, in document: PolicyDocument) -> [PreviewVariant] {
        let baseAsk = policy.settings.ask ?? document.defaults.ask
        func asks(_ layer: FeatureOverride) -> String? { (layer.ask ?? baseAsk).map(PreviewVariant.describe) }
        var variants = [PreviewVariant(.base, chosenBy: nil, asks: baseAsk.map(PreviewVariant.describe))]
        for (index, rule) in policy.targeting.enumerated() where changesScreens(rule.set) {
            variants.append(
                PreviewVariant(
                    .rule(index: index, name: rule.name), chosenBy: rule.when.condition.map(PreviewVariant.describe),
                    asks: asks(rule.set)))
        }
        for (experimentIndex, experiment) in document.experiments.enumerated()
        where experiment.feature == policy.feature {
            for (variantIndex, variant) in experiment.variants.enumerated() {
                variants.append(
                    PreviewVariant(
                        .experiment(
                            experimentIndex: experimentIndex, key: experiment.key, variantIndex: variantIndex,
                            name: variant.name),
                        chosenBy: experiment.condition.map(PreviewVariant.describe), asks: asks(variant.set)))
            }
        }
        return variants
    }

    private static func changesScreens(_ layer: FeatureOverride) -> Bool {
        !layer.copy.isEmpty || layer.style != nil || layer.strategy != nil || !layer.partial.isEmpty
    }

    // MARK: One feature, locale and variant

    /// A layer of the resolution with the pointer it is written at.
    private struct Layer {
        let override: FeatureOverride
        let pointer: JSONPointer
    }

    /// The document forced to show one variant of one feature, with the layers it applies: the same for every
    /// locale.
    private struct Forcing {
        let variant: PreviewVariant
        let forced: PolicyDocument
        let layers: [Layer]

        init(_ policy: FeaturePolicy, variant: PreviewVariant, in document: PolicyDocument) {
            let feature = policy.feature
            let featurePointer = JSONPointer.root.appending("features", feature.rawValue)
            var layers = [
                Layer(override: document.defaults, pointer: JSONPointer.root.appending("defaults")),
                Layer(override: policy.settings, pointer: featurePointer),
            ]
            var forced = document
            var forcedPolicy = FeaturePolicy(feature: feature, settings: policy.settings, targeting: [])
            forced.experiments = document.experiments.map { experiment in
                var experiment = experiment
                if experiment.feature == feature { experiment.coverage = 0 }
                return experiment
            }
            switch variant.kind {
            case .base:
                break
            case .rule(let index, let name):
                let rule = policy.targeting[index]
                forcedPolicy.targeting = [
                    TargetingRule(name: name, when: TargetingCondition(locales: rule.when.locales), set: rule.set)
                ]
                layers.append(
                    Layer(
                        override: rule.set,
                        pointer: featurePointer.appending("targeting").appending(index)
                            .appending("set")))
            case .experiment(let experimentIndex, _, let variantIndex, _):
                let experiment = document.experiments[experimentIndex]
                let arm = experiment.variants[variantIndex]
                forced.experiments[experimentIndex] = Experiment(
                    key: experiment.key, feature: feature, seed: experiment.seed, coverage: 1,
                    variants: [Variant(name: arm.name, weight: 1, set: arm.set)])
                layers.append(
                    Layer(
                        override: arm.set,
                        pointer: JSONPointer.root.appending("experiments").appending(experimentIndex)
                            .appending("variants").appending(variantIndex).appending("set")))
            }
            forced.features[feature] = forcedPolicy
            self.variant = variant
            self.forced = forced
            self.layers = layers
        }
    }

    /// `available` is `document.availableLocales`: the resolution of the forced document follows the original's
    /// fallback chains (`chain` is `locale`'s), whatever layers the forcing removed.
    private static func screens(
        of policy: FeaturePolicy, locale: LocaleTag, chain: [LocaleTag], forcing: Forcing,
        available: Set<LocaleTag>, findings: [JSONPointer: [LintFinding]]
    ) -> [PreviewScreen] {
        let feature = policy.feature
        let variant = forcing.variant
        let layers = forcing.layers
        let context = ClientContext(
            platform: .ios, osVersion: recentOS, locale: locale.description, installId: "preview")
        // Every locale of the original stays available (`available`), so fallback chains are the ones devices get.
        guard
            var resolved = PolicyResolver.resolve(feature, in: forcing.forced, context: context, available: available)
        else { return [] }
        // The preview draws what a layer shows once its `ask` moment has come (before it, nothing is shown).
        resolved.momentReached = true
        // A rule whose locale condition does not match this locale shows nothing new here.
        if case .rule = variant.kind, resolved.appliedRules.isEmpty { return [] }
        if case .experiment = variant.kind, resolved.variant == nil { return [] }

        var seen: Set<DecisionAction> = []
        var result: [PreviewScreen] = []
        for state in states(for: resolved) {
            guard
                let decision = try? DecisionEngine.decide(
                    policy: resolved, state: state, now: Instant(secondsSinceEpoch: 0)),
                let screen = decision.screen, !seen.contains(decision.action)
            else { continue }
            seen.insert(decision.action)
            let style = screen == .prime ? resolved.style : nil
            var texts: [PreviewText] = []
            var missing: [CopyField] = []
            for field in PreviewScreen.fields(of: screen, style: style) {
                guard let text = decision.copy[field] else {
                    missing.append(field)
                    continue
                }
                let source = self.source(of: CopyKey(screen, field), chain: chain, layers: layers)
                texts.append(
                    PreviewText(
                        field: field, text: text, source: source,
                        findings: source.flatMap { findings[$0] } ?? []))
            }
            let own = screenPointers(screen: screen, action: decision.action, chain: chain, layers: layers)
                .flatMap { findings[$0] ?? [] }.sorted()
            result.append(
                PreviewScreen(
                    feature: feature, locale: locale, variant: variant, action: decision.action, screen: screen,
                    style: style, texts: texts, missing: missing, findings: own))
        }
        return result.sorted { lhs, rhs in
            (actionOrder.firstIndex(of: lhs.action) ?? 0) < (actionOrder.firstIndex(of: rhs.action) ?? 0)
        }
    }

    /// One client state per screen the engine can choose for `resolved`'s feature (the table above).
    private static func states(for resolved: ResolvedFeature) -> [ClientState] {
        let feature = resolved.feature
        let capabilities = feature.capabilities
        var states: [ClientState] = []
        if capabilities.mayBeUnavailable {
            states.append(ClientState(feature: feature, status: .notDetermined, available: false, osVersion: recentOS))
        }
        // A device older than the feature's API but not older than the app's minimum OS (e.g. tracking before 14).
        if capabilities.introduced > resolved.minimumOS {
            states.append(ClientState(feature: feature, status: .notDetermined, osVersion: resolved.minimumOS))
        }
        if capabilities.reports(.restricted) {
            states.append(ClientState(feature: feature, status: .restricted, osVersion: recentOS))
        }
        states.append(ClientState(feature: feature, status: .notDetermined, osVersion: recentOS))
        states.append(ClientState(feature: feature, status: .notDetermined, osVersion: nil))
        states.append(ClientState(feature: feature, status: .denied, osVersion: recentOS))
        let exhausted = ScreenHistory(shownCount: resolved.cadence.settings.maxShows, lastShown: nil)
        states.append(
            ClientState(feature: feature, status: .denied, osVersion: recentOS, history: [.settings: exhausted]))
        if capabilities.reports(.deniedGlobally) {
            states.append(ClientState(feature: feature, status: .deniedGlobally, osVersion: recentOS))
        }
        for status in capabilities.partialStatuses {
            states.append(ClientState(feature: feature, status: status, osVersion: recentOS))
        }
        return states
    }

    /// The pointer of the document value `key`'s resolved text comes from: the first locale on the chain that any
    /// layer gives the key, and there the last (winning) layer.
    private static func source(of key: CopyKey, chain: [LocaleTag], layers: [Layer]) -> JSONPointer? {
        for tag in chain {
            for layer in layers.reversed() where layer.override.copy[tag]?.texts[key] != nil {
                return layer.pointer.appending("copy", tag.description, key.screen.rawValue, key.field.rawValue)
            }
        }
        return nil
    }

    /// The pointers whose findings concern this screen as a whole, not one text of it: the style that lays out a
    /// priming screen, the cadence of the screen's kind, the feature itself (a priming suggestion), and the screen's
    /// copy as a whole in a locale on the chain (DN-1).
    private static func screenPointers(
        screen: CopyScreen, action: DecisionAction, chain: [LocaleTag], layers: [Layer]
    ) -> [JSONPointer] {
        var pointers: [JSONPointer] = []
        if screen == .prime, let styled = layers.last(where: { $0.override.style != nil }) {
            pointers.append(styled.pointer.appending("style"))
        }
        for layer in layers {
            if let kind = action.cadenceKind { pointers.append(layer.pointer.appending("cadence", kind.rawValue)) }
            if screen == .prime, layer.pointer.tokens.count == 2 { pointers.append(layer.pointer) }
            for tag in chain { pointers.append(layer.pointer.appending("copy", tag.description, screen.rawValue)) }
        }
        return pointers
    }
}
