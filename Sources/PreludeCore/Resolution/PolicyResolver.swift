/// Resolves a policy document for one client. Pure and deterministic: the same document and context give the
/// same result on every machine.
///
/// For each feature, layers are applied field by field (copy text by text), later ones winning:
/// 1. built-in values (``Cadence/builtIn``, ``SettingsBehaviour/builtIn``, strategy `prime`, style `single`,
///    partial `proceed`);
/// 2. the document's `defaults`;
/// 3. the feature's own settings;
/// 4. each targeting rule whose `when` matches, in document order;
/// 5. the variant assigned by the feature's experiment (bucketing: GrowthBook hashing v2 of the experiment's
///    seed, or its key, and the install id; weights and coverage as written), when the install matches the
///    experiment's audience `condition`.
/// Then `button` becomes `prime` unless the client's OS is known to have the feature's button, and each text is
/// looked up along the served locale's fallback chain (``LocaleResolver/fallbackChain(for:available:defaultLocale:)``)
/// and its `{appName}` filled.
public enum PolicyResolver {
    /// The policy of every configured feature for `context`.
    public static func resolve(_ document: PolicyDocument, context: ClientContext) -> ResolvedPolicy {
        let available = document.availableLocales
        let locale = LocaleResolver.resolve(
            explicit: context.locale, acceptLanguage: context.acceptLanguage, available: available,
            defaultLocale: document.app.defaultLocale
        )
        let assignments = document.experiments.map { experiment in
            ExperimentAssignment(
                key: experiment.key, feature: experiment.feature, variant: assign(experiment, context: context)?.name)
        }
        var features: [Feature: ResolvedFeature] = [:]
        for policy in document.orderedFeatures {
            features[policy.feature] = resolve(
                policy, in: document, context: context, locale: locale, available: available)
        }
        return ResolvedPolicy(
            appId: document.app.id, appName: document.app.name, locale: locale, features: features,
            experiments: assignments, minimumOS: document.app.effectiveMinimumOS
        )
    }

    /// The policy of one feature for `context`, or nil when the document does not configure it.
    public static func resolve(_ feature: Feature, in document: PolicyDocument, context: ClientContext)
        -> ResolvedFeature?
    {
        resolve(feature, in: document, context: context, available: document.availableLocales)
    }

    /// ``resolve(_:in:context:)`` with the document's ``PolicyDocument/availableLocales`` computed by the caller,
    /// once for many resolutions (the preview resolves every feature, locale and variant of one locale set).
    static func resolve(
        _ feature: Feature, in document: PolicyDocument, context: ClientContext, available: Set<LocaleTag>
    ) -> ResolvedFeature? {
        guard let policy = document.features[feature] else { return nil }
        let locale = LocaleResolver.resolve(
            explicit: context.locale, acceptLanguage: context.acceptLanguage, available: available,
            defaultLocale: document.app.defaultLocale
        )
        return resolve(policy, in: document, context: context, locale: locale, available: available)
    }

    /// The variant `experiment` gives the install, or nil without an install id, outside the experiment's audience
    /// (its `condition`) or outside coverage.
    public static func assign(_ experiment: Experiment, context: ClientContext) -> Variant? {
        guard let installId = context.installId, !installId.isEmpty, !experiment.variants.isEmpty,
            experiment.admits(context)
        else { return nil }
        let index = Bucketing.assign(
            seed: experiment.hashSeed, installId: installId, weights: experiment.variants.map(\.weight),
            coverage: experiment.coverage
        )
        return index.map { experiment.variants[$0] }
    }

    private static func resolve(
        _ policy: FeaturePolicy, in document: PolicyDocument, context: ClientContext, locale: LocaleTag,
        available: Set<LocaleTag>
    ) -> ResolvedFeature {
        let feature = policy.feature
        let capabilities = feature.capabilities
        // The layers in the order they apply (later ones win).
        var layers = [document.defaults, policy.settings]
        var appliedRules: [String] = []
        for rule in policy.targeting where rule.when.matches(context) {
            layers.append(rule.set)
            appliedRules.append(rule.name)
        }
        var variantAssignment: VariantAssignment?
        if let experiment = document.experiment(for: feature), let variant = assign(experiment, context: context) {
            layers.append(variant.set)
            variantAssignment = VariantAssignment(experiment: experiment.key, variant: variant.name)
        }
        // Every field but copy is merged layer on layer; copy is looked up per text below, in the locales of the
        // fallback chain only: merging every locale's texts cost as much as the rest of a resolution together for
        // a document with many locales (BENCHMARKS.md, "Preview at the size limit").
        var merged = FeatureOverride()
        for layer in layers {
            var settings = layer
            settings.copy = [:]
            merged = merged.merging(settings)
        }

        var strategy = merged.strategy ?? .prime
        var button: ButtonKind?
        var buttonFallback = false
        if strategy == .button {
            if let available = capabilities.button, context.osIsAtLeast(available.since) {
                button = available.kind
            } else {
                // No button on this OS (or unknown OS): the priming screen is the closest equivalent.
                strategy = .prime
                buttonFallback = true
            }
        }

        var partial: [AuthorizationStatus: PartialAction] = [:]
        for status in capabilities.partialStatuses {
            partial[status] = merged.partial[status] ?? .proceed
        }

        let chain = LocaleResolver.fallbackChain(
            for: locale, available: available, defaultLocale: document.app.defaultLocale)
        let values = ["appName": document.app.name]
        // Per locale of the chain, the copy sets the layers give it, the winning (last) layer first: a text is the
        // first one found, which is what layering the sets text by text and then following the chain gives.
        let setsByLocale: [[CopySet]] = chain.map { tag in layers.reversed().compactMap { $0.copy[tag] } }
        var texts: [CopyKey: String] = [:]
        let neverShown = capabilities.screensNeverShown
        keys: for key in CopyKey.all where !neverShown.contains(key.screen) {
            for sets in setsByLocale {
                for set in sets {
                    if let text = set.texts[key] {
                        texts[key] = Placeholder.fill(text, values: values)
                        continue keys
                    }
                }
            }
        }

        return ResolvedFeature(
            feature: feature, strategy: strategy, button: button, style: merged.style ?? .single,
            cadence: merged.effectiveCadence, settings: merged.effectiveSettings, partial: partial,
            copy: ResolvedCopy(texts), variant: variantAssignment, appliedRules: appliedRules,
            buttonFallback: buttonFallback, minimumOS: document.app.effectiveMinimumOS,
            access: policy.access, ask: merged.ask, momentReached: merged.ask?.isReached(by: context) ?? true
        )
    }
}
