/// What the client shows now for one feature; the first column of the decision table in docs/decisions.md.
public enum DecisionAction: String, CaseIterable, Hashable, Sendable, Codable {
    /// Use the feature; nothing to show.
    case proceed
    /// The device lacks the hardware or source; show the unsupported message.
    case unsupported
    /// Show the priming screen; its action leads to the system alert.
    case prime
    /// Show nothing now; the priming screen becomes eligible at `eligibleAt` (or never, when exhausted).
    case wait
    /// Fire the system alert directly.
    case systemPrompt
    /// Show CoreLocationUI's LocationButton (iOS 15+).
    case locationButton
    /// Show ContactsUI's ContactAccessButton (iOS 18+), while notDetermined or limited.
    case contactAccessButton
    /// Show the Settings nudge; its action opens the app's Settings page after a short delay.
    case openSettings
    /// Show the explanatory denied empty state (never a blank page).
    case deniedScreen
    /// Explain that access is restricted (parental controls, MDM); no Settings button, never a re-ask.
    case restrictedNotice
    /// Show the upgrade prompt asking to turn a partial grant into full access.
    case upgrade
    /// Present the system's limited-library picker for photos (`PHPhotoLibrary.presentLimitedLibraryPicker`,
    /// or PhotosUI's picker).
    case limitedPicker
    /// Present ContactsUI's contact access picker (iOS 18, SwiftUI `contactAccessPicker(isPresented:)`): manage
    /// the limited contact set in bulk.
    case contactAccessPicker
    /// Show nothing now and do not ask: a launch-time request the policy does not allow (HIG: ask in context);
    /// decide again when the person uses the feature.
    case askInContext
    /// Use the out-of-process system picker, which needs no permission (PHPickerViewController for photos,
    /// CNContactPickerViewController for one contact): the policy's use case is `pick`.
    case systemPicker
    /// Ask less: present the decision's `path` (``PermissionlessPath``) and never ask; strategy `permissionless`.
    case permissionless
    /// Location Services are off for the whole device: explain how to turn them on (copy `servicesOff`); never
    /// the app's Settings page, which cannot fix it, and never counted against a cadence.
    case locationServicesOff

    /// The screen kind whose history counts this showing, for the actions governed by a cadence.
    public var cadenceKind: CadenceKind? {
        switch self {
        case .prime: .prime
        case .openSettings: .settings
        case .upgrade, .limitedPicker, .contactAccessPicker: .upgrade
        case .contactAccessButton, .proceed, .unsupported, .wait, .systemPrompt, .locationButton, .deniedScreen,
            .restrictedNotice, .askInContext, .systemPicker, .permissionless, .locationServicesOff:
            nil
        }
    }
}
