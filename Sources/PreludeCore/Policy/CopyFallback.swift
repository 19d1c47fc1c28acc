/// The texts this build supplies when a revision accepted by an earlier build lacks one a later rule requires
/// (docs/policy.md, "Revisions written by earlier builds").
///
/// A revision once accepted is served by every later build (``StoredPolicyReader``). When a validation rule added
/// later requires a text the stored revision does not have (the `unsupported` screen of microphone, photos and
/// tracking since 0.2.0), the served document gets this text in the default locale and the revision gets a
/// finding saying so; the next write must provide the real text. The fallbacks are plain, feature-neutral English
/// and use only the `{appName}` placeholder, so they pass the validator.
public enum CopyFallback {
    /// The fallback text of `key`.
    public static func text(_ key: CopyKey) -> String {
        switch (key.screen, key.field) {
        case (_, .continueLabel): "Continue"
        case (_, .cancelLabel): "Not now"
        case (_, .openLabel): "Open Settings"
        case (_, .caption): "{appName} uses this to work as expected."
        case (.unsupported, .title): "Not available on this device"
        case (.unsupported, .message): "{appName} can't use this on this device, so this part of the app is off."
        case (.denied, .title), (.restricted, .title): "Access is off"
        case (.denied, .message): "You can turn access on for {appName} in Settings at any time."
        case (.restricted, .message): "Access is limited on this device, so {appName} can't turn it on."
        case (.settings, .title): "Turn on access in Settings"
        case (.settings, .message): "{appName} needs access for this. You can turn it on in Settings."
        case (.upgrade, .title): "Allow full access?"
        case (.upgrade, .message): "{appName} works best with full access. You can change it at any time."
        case (_, .title): "Allow access?"
        case (_, .message): "{appName} asks for access so this part of the app works."
        }
    }
}
