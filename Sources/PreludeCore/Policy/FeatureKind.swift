/// What stands behind a catalogue entry: an OS permission with its system prompt, or a consent the app asks for
/// and records itself.
public enum FeatureKind: String, CaseIterable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// An OS permission: a system prompt, a status the OS reports, a Settings page that can change it.
    case osPermission
    /// An app-level consent (App Review 5.1.2(i)'s consent before personal data goes to a third-party AI service,
    /// iOS 26.4's significant-change acknowledgement): the app's own screen is the whole request. No OS prompt,
    /// no purpose string, no Settings page; the app stores the answer (`authorized` = granted, `denied` =
    /// declined) and reports it as the status. The priming screen is the consent screen: same copy, cadence, lint,
    /// preview, experiments and guarded rollouts.
    case appConsent

    /// The JSON name.
    public var description: String { rawValue }
}
