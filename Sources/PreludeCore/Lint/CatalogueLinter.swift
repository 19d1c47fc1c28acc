/// OS-1, LN-1, LS-1 and CT-1: what the catalogue (docs/catalogue.md, ``FeatureCatalogue``) says is legal on which
/// OS version and for which status API.
///
/// The engine already does the safe thing in each case (priming below a permissionless path's OS, no re-ask of
/// limited contacts, the local network's unknowable status); the linter tells the policy's author before users see
/// the difference.
enum CatalogueLinter {
    /// The catalogue findings of every feature of `document`, in document order.
    static func lint(_ document: PolicyDocument) -> [LintFinding] {
        var findings: [LintFinding] = []
        let minimumOS = document.app.effectiveMinimumOS
        for policy in document.orderedFeatures {
            let feature = policy.feature
            let pointer = JSONPointer.root.appending("features", feature.rawValue)
            // Every layer that can set a strategy, with the OS range it applies to (nil: every OS).
            var layers: [(settings: FeatureOverride, pointer: JSONPointer, os: VersionRange?)] = [
                (policy.settings, pointer, nil)
            ]
            for (index, rule) in policy.targeting.enumerated() {
                layers.append(
                    (rule.set, pointer.appending("targeting").appending(index).appending("set"), rule.when.os))
            }
            for (index, experiment) in document.experiments.enumerated() where experiment.feature == feature {
                for (variantIndex, variant) in experiment.variants.enumerated() {
                    let at = JSONPointer.root.appending("experiments").appending(index).appending("variants")
                        .appending(variantIndex).appending("set")
                    layers.append((variant.set, at, nil))
                }
            }
            for layer in layers {
                if layer.settings.strategy == .permissionless, let path = feature.capabilities.permissionless,
                    let oldest = oldestOS(below: path.since, from: minimumOS, in: layer.os)
                {
                    // AccessorySetupKit changes how the app pairs at all (NSAccessorySetupKitSupports): priming the
                    // Bluetooth prompt on older systems is a different product, so it is an error there. The pickers'
                    // fallback (priming) is the flow every app had before them: information only.
                    findings.append(
                        LintFinding(
                            rule: .os1, severity: path.path == .accessorySetup ? .error : .info,
                            pointer: layer.pointer.appending("strategy"),
                            message:
                                "\(path.path) needs iOS \(path.since.major).\(path.since.minor) or later, but this "
                                + "setting also applies to iOS \(oldest.major).\(oldest.minor) (app.minimumOS or the "
                                + "rule's os), where the engine primes the system prompt instead; limit it with an os "
                                + "condition or raise app.minimumOS."))
                }
                if feature == .localNetwork && layer.settings.strategy == .direct {
                    findings.append(
                        LintFinding(
                            rule: .ln1, pointer: layer.pointer.appending("strategy"),
                            message: "The local network has no request API and no status API: its alert appears on "
                                + "the first access, so \"direct\" means \"access the network now\"; prime first, and "
                                + "infer the answer from a probe (its status is not knowable)."))
                }
                if feature == .contacts && layer.settings.partial[.limited] == .upgrade {
                    findings.append(
                        LintFinding(
                            rule: .ct1, pointer: layer.pointer.appending("partial", "limited"),
                            message: "Limited contacts never re-prompt: requesting access again shows nothing. The "
                                + "engine presents the contact access picker instead; say so with \"limitedPicker\", "
                                + "or offer \"contactAccessButton\" in the app's search."))
                }
            }
            if feature == .locationWhenInUse || feature == .locationAlways {
                let defaultLocale = document.app.defaultLocale
                let texts = document.defaults.merging(policy.settings).copy[defaultLocale]?.texts ?? [:]
                if !texts.keys.contains(where: { $0.screen == .servicesOff }) {
                    findings.append(
                        LintFinding(
                            rule: .ls1, pointer: pointer.appending("copy", defaultLocale.description),
                            message: "\(feature) has no servicesOff texts: with Location Services off for the whole "
                                + "device the engine explains with the denied texts, which may point at the app's "
                                + "Settings page; add servicesOff.title and servicesOff.message (\"turn on Location "
                                + "Services\")."))
                }
            }
        }
        return findings
    }

    /// The oldest iOS version from `minimum` on, older than `since`, that `range` admits (nil: none).
    private static func oldestOS(below since: SemanticVersion, from minimum: SemanticVersion, in range: VersionRange?)
        -> SemanticVersion?
    {
        guard minimum < since else { return nil }
        var probes = [minimum]
        for major in minimum.major...since.major {
            for minor in 0...9 { probes.append(SemanticVersion(major: major, minor: minor)) }
        }
        return probes.filter { $0 >= minimum && $0 < since && (range?.contains($0) ?? true) }.min()
    }
}
