/// PA-8 and PA-9: when a feature asks (`access.askAtLaunch`) and what for (`access.useCase`).
///
/// The engine enforces both (a launch-time request without `askAtLaunch` gets `askInContext`, a `pick` use case
/// gets `systemPicker`); the linter flags the policy choices a reviewer should confirm.
enum AccessLinter {
    /// The PA-8 and PA-9 findings of one feature entry at `pointer` (`/features/<feature>`).
    static func lint(_ policy: FeaturePolicy, at pointer: JSONPointer) -> [LintFinding] {
        var findings: [LintFinding] = []
        let feature = policy.feature
        let access = policy.access
        let accessPointer = pointer.appending("access")
        if access.askAtLaunch {
            if feature == .tracking {
                // An app must work when tracking is refused (App Review 5.1.1(iv), ATT), so it never needs it.
                findings.append(
                    LintFinding(
                        rule: .pa8, severity: .error, pointer: accessPointer.appending("askAtLaunch"),
                        message:
                            "Tracking is never required for the app to work; ask when it is relevant, not at launch."
                    ))
            } else if access.useCase == .pick {
                findings.append(
                    LintFinding(
                        rule: .pa9, pointer: accessPointer.appending("askAtLaunch"),
                        message: "The system picker needs no permission, so there is nothing to ask at launch; "
                            + "remove askAtLaunch."))
            } else {
                findings.append(
                    LintFinding(
                        rule: .pa8, pointer: accessPointer.appending("askAtLaunch"),
                        message: "\(feature) asks at launch: keep askAtLaunch only if the app cannot work without it; "
                            + "otherwise it asks when the feature is used."))
            }
        }
        if FeatureAccess.pickFeatures.contains(feature) && access.useCase == nil {
            let picker = feature == .photos ? "PHPickerViewController" : "CNContactPickerViewController"
            findings.append(
                LintFinding(
                    rule: .pa9, severity: .info, pointer: accessPointer,
                    message: "Say what \(feature) access is for: when people only pick items, set useCase \"pick\" "
                        + "(\(picker) needs no permission); \"library\" when the app reads the library itself."))
        }
        return findings
    }
}
