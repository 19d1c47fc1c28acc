/// Why the engine chose its action: one code per row of the decision table in docs/decisions.md, and its variations.
public enum DecisionReason: String, CaseIterable, Hashable, Sendable, Codable {
    /// The device lacks the hardware or source.
    case hardwareUnavailable
    /// The OS predates the feature's authorization API.
    case osTooOld
    /// Full access.
    case authorized
    /// Restricted by parental controls or MDM: explain, never re-ask.
    case restricted
    /// notDetermined, priming allowed by the cadence.
    case primeEligible
    /// notDetermined, priming shown recently: wait for the interval.
    case primeCadenceWaiting
    /// notDetermined, priming shown the maximum number of times.
    case primeCadenceExhausted
    /// notDetermined, the user continued from the priming screen last time: the system alert is due.
    case primeAlreadyAccepted
    /// notDetermined, strategy `direct`.
    case directStrategy
    /// notDetermined, strategy `button` on an OS that has the button.
    case buttonStrategy
    /// notDetermined, strategy `button` on an OS without it, or an unknown OS: priming instead.
    case buttonUnavailableFallback
    /// Denied and the Settings nudge is due.
    case settingsNudgeEligible
    /// Denied and the nudge is not due (shown recently or too often).
    case settingsNudgeNotDue
    /// Tracking: the system asks once per install, so no nudge and no cadence.
    case trackingAskedOnce
    /// Partial grant and the policy says to proceed with it.
    case partialProceed
    /// Partial grant and the upgrade (or picker) is due.
    case partialUpgradeEligible
    /// Partial grant and the upgrade is not due.
    case partialUpgradeNotDue
    /// Partial grant handled in-line by a system button (ContactAccessButton).
    case partialButton
    /// Asked at launch, and the policy does not let the feature ask then (`access.askAtLaunch` unset).
    case launchNotAllowed
    /// The policy's use case is `pick`: the system picker serves it without any permission.
    case pickerServesUseCase
    /// notDetermined (or any status but authorized), strategy `permissionless` on an OS with the path.
    case permissionlessStrategy
    /// Strategy `permissionless` on an OS without the path, or an unknown OS: priming instead.
    case permissionlessUnavailableFallback
    /// Location Services are off device-wide (`deniedGlobally`).
    case locationServicesOff
    /// Location: the app is not in use enough for the system to prompt (`insufficientlyInUse`); decide again when
    /// it is.
    case insufficientlyInUse
    /// Alarms: the one prompt happened and the state still reads notDetermined; AlarmKit's request does not
    /// prompt again, it returns the real state.
    case requestIsSilent
    /// Local network: the one alert happened (by the ledger) and no API reports its answer; use the network.
    case statusNotKnowable
    /// Calendars write-only: the full-access request already prompted once and never prompts again.
    case upgradeAskedOnce
    /// Photos limited, the app does not set PHPhotoLibraryPreventAutomaticLimitedAccessAlert: the OS re-asks
    /// about the selection itself, so the policy adds nothing.
    case systemOwnsLimitedReask
    /// Tracking on iOS 27.2 in a storefront where the system may ask again: the person answered once and the status
    /// reads notDetermined again, so the system reopened the question; its request shows the system's re-ask.
    case systemReask
    /// Tracking denied where the system may ask again by itself (iOS 27.2, EU storefronts): the denied explanation,
    /// no Settings nudge, and no re-ask of ours — any re-ask is the system's.
    case systemOwnsReask
    /// An app-level consent the app recorded as granted.
    case consentGranted
    /// An app-level consent the app recorded as declined: an answer, never re-asked by a cadence.
    case consentDeclined
    /// An app-level consent not yet answered: the app's consent screen (the priming screen) is due.
    case consentScreen
    /// notDetermined, and the feature's `ask` rule is not met yet (its moment not reported often enough): nothing
    /// is shown and no `eligibleAt` is given; decide again when the app reports the moment.
    case momentNotReached
}
