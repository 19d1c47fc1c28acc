/// Lints a policy document's copy and settings against Apple's rules (docs/lint.md).
///
/// Every layer that can carry copy is checked where it is written — `defaults`, each feature, each targeting
/// rule's `set`, each experiment variant's `set` — so each finding's pointer names the text to edit.
/// Validation (``PolicyValidator``) says whether a document can be served; lint says whether App Review and
/// Apple's guidance would accept what it shows.
public enum CopyLinter {
    /// Every finding for `document`, in document order.
    public static func lint(_ document: PolicyDocument) -> [LintFinding] {
        var checkers = LintCheckers()
        return lint(document, reusing: &checkers)
    }

    /// ``lint(_:)`` with the word lists compiled by earlier runs (`checkers`, which this run extends): compiling
    /// them is the costly part of a run, so a server keeps them across writes.
    package static func lint(_ document: PolicyDocument, reusing checkers: inout LintCheckers) -> [LintFinding] {
        var findings: [LintFinding] = []
        let root = JSONPointer.root
        let trackingInheritsStyle = document.features[.tracking].map { $0.settings.style == nil } ?? false
        findings += lintLayer(
            document.defaults, feature: nil, at: root.appending("defaults"), checkers: &checkers,
            defaultsReachTracking: trackingInheritsStyle)
        for policy in document.orderedFeatures {
            let pointer = root.appending("features", policy.feature.rawValue)
            findings += lintLayer(policy.settings, feature: policy.feature, at: pointer, checkers: &checkers)
            for (index, rule) in policy.targeting.enumerated() {
                findings += lintLayer(
                    rule.set, feature: policy.feature,
                    at: pointer.appending("targeting").appending(index).appending("set"),
                    checkers: &checkers)
            }
            findings += lintFeature(policy, in: document, at: pointer)
            findings += lintPurposeStrings(policy, at: pointer.appending("purposeStrings"))
            findings += AccessLinter.lint(policy, at: pointer)
        }
        findings += CatalogueLinter.lint(document)
        findings += ConditionLinter.lint(document)
        for (index, experiment) in document.experiments.enumerated() {
            for (variantIndex, variant) in experiment.variants.enumerated() {
                let pointer = root.appending("experiments").appending(index).appending("variants")
                    .appending(variantIndex).appending("set")
                findings += lintLayer(variant.set, feature: experiment.feature, at: pointer, checkers: &checkers)
            }
        }
        return findings.sorted()
    }

    /// Lints the document, then `PurposeStringLinter` over `purposeStrings` (locale → key → text) when given.
    public static func lint(_ document: PolicyDocument, purposeStrings: [String: [String: String]]) -> [LintFinding] {
        lint(document) + PurposeStringLinter.lint(stringsByLocale: purposeStrings)
    }

    // MARK: One layer

    private static func lintLayer(
        _ layer: FeatureOverride, feature: Feature?, at pointer: JSONPointer, checkers: inout LintCheckers,
        defaultsReachTracking: Bool = false
    ) -> [LintFinding] {
        var findings: [LintFinding] = []
        let isTracking = feature == .tracking
        // An app-level consent's screen grants on the app's own screen and must let people decline (AC-1, AC-2):
        // the priming rules about the system alert (PA-1 to PA-4 on its labels) do not apply to it.
        let isConsent = feature?.capabilities.kind == .appConsent
        // TR-1: for tracking, PA-1 to PA-7 are errors.
        let primingSeverity: LintSeverity? = isTracking ? .error : nil
        let softSeverity: LintSeverity = isTracking ? .error : .warning

        if layer.style == .twoButton && !isConsent {
            let stylePointer = pointer.appending("style")
            if isTracking || defaultsReachTracking {
                findings.append(
                    LintFinding(
                        rule: .tr1, pointer: stylePointer,
                        message: "The tracking pre-prompt uses the two-button style; it must be informational, "
                            + "with one Continue action leading to the system alert."))
            } else {
                findings.append(
                    LintFinding(
                        rule: .pa1, severity: .warning, pointer: stylePointer,
                        message: "The two-button style gives the priming screen two actions; Apple asks for one "
                            + "that leads to the system alert (style \"single\")."))
            }
        }

        if isTracking {
            // TR-2: the system asks once per install; a cadence would schedule re-asks it will never show.
            for kind in CadenceKind.allCases.sorted(by: { $0.rawValue < $1.rawValue }) where layer.cadence[kind] != nil
            {
                // `maxShows: 0` schedules nothing at all: "never prime here" (a targeting rule's way to keep the
                // priming screen and its prompt from a segment, such as a declared age below 18).
                if kind == .prime, layer.cadence[kind]?.maxShows == 0 { continue }
                findings.append(
                    LintFinding(
                        rule: .tr2, pointer: pointer.appending("cadence", kind.rawValue),
                        message: "Tracking is asked once per install; remove the \(kind) cadence."))
            }
        }

        for locale in layer.copy.keys.sorted(by: { $0.description < $1.description }) {
            guard let set = layer.copy[locale] else { continue }
            let localePointer = pointer.appending("copy", locale.description)
            let checker = checkers.checker(for: locale)
            for key in set.texts.keys.sorted() {
                guard let text = set.texts[key] else { continue }
                // A text's findings depend only on these, so a text checked by an earlier run is not checked again
                // (and its pointer is made only when it has findings: most texts have none).
                let checked = LintCheckers.CheckedText(
                    language: checker.language, key: key, text: text, primingSeverity: primingSeverity,
                    softSeverity: softSeverity, consent: isConsent)
                if let known = checkers.findings(
                    of: checked, at: localePointer.appending(key.screen.rawValue, key.field.rawValue))
                {
                    findings += known
                    continue
                }
                let textPointer = localePointer.appending(key.screen.rawValue, key.field.rawValue)
                let found =
                    isConsent && key.screen == .prime && (key.field == .continueLabel || key.field == .cancelLabel)
                    ? lintConsentLabel(text, key: key, checker: checker, at: textPointer)
                    : lintText(
                        text, key: key, checker: checker, at: textPointer,
                        primingSeverity: primingSeverity, softSeverity: softSeverity)
                checkers.remember(found, of: checked)
                findings += found
            }
        }
        return findings
    }

    private static func lintText(
        _ text: String, key: CopyKey, checker: TextChecker, at pointer: JSONPointer,
        primingSeverity: LintSeverity?, softSeverity: LintSeverity
    ) -> [LintFinding] {
        var findings: [LintFinding] = []
        switch (key.screen, key.field) {
        case (.prime, .continueLabel):
            findings += checker.checkContinueLabel(text, pointer: pointer, severity: primingSeverity)
        case (.prime, .cancelLabel):
            findings += checker.checkSecondLabel(text, pointer: pointer, severity: primingSeverity ?? .warning)
        default:
            break
        }
        if key.screen == .prime {
            findings += checker.checkPrimingText(
                text, pointer: pointer, severity: primingSeverity,
                incentiveSeverity: softSeverity)
        }
        if key.field == .message {
            findings += checker.checkSentence(text, pointer: pointer)
            if key.screen == .prime { findings += checker.checkPurpose(text, pointer: pointer) }
            if key.screen == .restricted, let word = checker.pointsToSettings(text) {
                findings.append(
                    LintFinding(
                        rule: .dn2, pointer: pointer,
                        message: "The restricted notice points to Settings (\"\(word)\"); restricted users cannot "
                            + "change this status, so explain without sending them there."))
            }
        }
        return findings
    }

    /// AC-2 for a consent screen's action: a neutral Continue/Next hides what is being agreed to. The decline label
    /// is free (it is the visible way out AC-1 asks for).
    private static func lintConsentLabel(_ text: String, key: CopyKey, checker: TextChecker, at pointer: JSONPointer)
        -> [LintFinding]
    {
        guard key.field == .continueLabel else { return [] }
        let trimmed = TextChecker.trim(text)
        let neutral =
            CopyLexicon.continueLabels(.english) + (checker.language.map(CopyLexicon.continueLabels) ?? [])
        guard neutral.contains(where: { $0.lowercased() == trimmed.lowercased() }) else { return [] }
        return [
            LintFinding(
                rule: .ac2, pointer: pointer,
                message: "The consent action \"\(trimmed)\" does not say what the person agrees to; name it "
                    + "(\"Allow sharing\", \"Agree\"): the app records this answer as the consent itself.")
        ]
    }

    /// The intended purpose strings, checked as an app's CI checks its Info.plist (PS-1 to PS-11), at their
    /// pointers in the document.
    private static func lintPurposeStrings(_ policy: FeaturePolicy, at pointer: JSONPointer) -> [LintFinding] {
        guard !policy.purposeStrings.isEmpty else { return [] }
        var byLocale: [String: [String: String]] = [:]
        for (locale, strings) in policy.purposeStrings { byLocale[locale.description] = strings }
        return PurposeStringLinter.lint(stringsByLocale: byLocale).map { finding in
            var moved = finding
            moved.pointer = JSONPointer(tokens: pointer.tokens + finding.pointer.tokens)
            return moved
        }
    }

    // MARK: Whole feature

    private static func lintFeature(_ policy: FeaturePolicy, in document: PolicyDocument, at pointer: JSONPointer)
        -> [LintFinding]
    {
        var findings: [LintFinding] = []
        let merged = document.defaults.merging(policy.settings)
        if policy.feature.capabilities.kind == .appConsent {
            // AC-1: explicit consent offers a visible decline (App Review 5.1.2(i)); the single style has none.
            if merged.style != .twoButton {
                findings.append(
                    LintFinding(
                        rule: .ac1, pointer: pointer.appending("style"),
                        message: "\(policy.feature) is an app-level consent: use style \"twoButton\" so the screen "
                            + "has a visible way to decline beside the action that grants."))
            }
        }
        if policy.feature == .locationWhenInUse, merged.strategy != .button {
            findings.append(
                LintFinding(
                    rule: .pa10, pointer: pointer,
                    message: "For one-off location use, consider strategy \"button\" (Location Button, iOS 15)."))
        }
        // DN-1: the Settings nudge offers an alternative to going to Settings (checked in the default locale,
        // which every fallback chain ends with).
        let defaultLocale = document.app.defaultLocale
        if let copy = merged.copy[defaultLocale], copy[.settings, .openLabel] != nil,
            copy[.settings, .cancelLabel] == nil
        {
            findings.append(
                LintFinding(
                    rule: .dn1, pointer: pointer.appending("copy", defaultLocale.description, "settings"),
                    message: "The Settings nudge has no cancel action; let people decline and keep using the app."))
        }
        return findings
    }
}
