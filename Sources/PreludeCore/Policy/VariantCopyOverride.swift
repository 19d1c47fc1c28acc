/// A copy text a write changed that a running experiment's variant overrides for its arm: the installs in that arm
/// keep seeing the variant's text (docs/admin.md, "Copy an experiment overrides").
public struct VariantCopyOverride: Sendable, Hashable {
    /// The experiment.
    public let experiment: String
    /// The variant (arm) whose `set.copy` holds its own text.
    public let variant: String
    /// The feature.
    public let feature: Feature
    /// The locale of the text.
    public let locale: LocaleTag
    /// The text's screen and field.
    public let key: CopyKey

    /// Where the variant's text is in `document`: `/experiments/N/variants/M/set/copy/<locale>/<screen>/<field>`.
    public func pointer(in document: PolicyDocument) -> JSONPointer {
        let experimentIndex = document.experiments.firstIndex { $0.key == experiment } ?? 0
        let variantIndex = document.experiments[experimentIndex].variants.firstIndex { $0.name == variant } ?? 0
        return JSONPointer.root.appending("experiments").appending(experimentIndex).appending("variants")
            .appending(variantIndex).appending(
                "set", "copy", locale.description, key.screen.rawValue, key.field.rawValue)
    }

    /// A sentence for the write's answer.
    public var message: String {
        "experiment \"\(experiment)\" (running) overrides \(feature) \(key) in \(locale) for its arm \"\(variant)\": "
            + "installs in that arm keep seeing the variant's text; change the variant too, or stop the experiment"
    }

    /// Every text changed between `old` and `new` (on the feature or in `defaults`) that a variant of a running
    /// experiment (coverage above 0) in `new` overrides; sorted by experiment, variant, locale and key.
    public static func find(old: PolicyDocument?, new: PolicyDocument) -> [VariantCopyOverride] {
        var found: Set<VariantCopyOverride> = []
        for experiment in new.experiments where experiment.coverage > 0 {
            let feature = experiment.feature
            for variant in experiment.variants {
                for (locale, set) in variant.set.copy {
                    for key in set.texts.keys {
                        let before = text(old, feature, locale, key)
                        let after = text(new, feature, locale, key)
                        if before != after {
                            found.insert(
                                VariantCopyOverride(
                                    experiment: experiment.key, variant: variant.name, feature: feature,
                                    locale: locale, key: key))
                        }
                    }
                }
            }
        }
        return found.sorted {
            ($0.experiment, $0.variant, $0.locale.description, $0.key) < (
                $1.experiment, $1.variant, $1.locale.description, $1.key
            )
        }
    }

    /// The text the feature shows outside any variant: its own, else `defaults`'.
    private static func text(_ document: PolicyDocument?, _ feature: Feature, _ locale: LocaleTag, _ key: CopyKey)
        -> String?
    {
        guard let document else { return nil }
        return document.features[feature]?.settings.copy[locale]?.texts[key]
            ?? document.defaults.copy[locale]?.texts[key]
    }
}
