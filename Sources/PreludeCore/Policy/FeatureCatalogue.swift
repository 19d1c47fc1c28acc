/// The facts about every feature: statuses, strategies, and the OS version (iOS numbering) where each appeared.
///
/// Sources: the framework documentation summarised in docs/lint.md
/// (AVFoundation, Photos, Contacts, CoreLocation, CoreLocationUI, UserNotifications, AppTrackingTransparency,
/// EventKit, CoreBluetooth, CoreMotion, Speech, HealthKit, Network).
///
/// `mayBeUnavailable` is true where an API reports the hardware or source missing; the others (contacts,
/// location — Location Services turned off is the user's choice, answered by Settings —, notifications,
/// tracking, calendars, reminders, local network) exist on every device, and the engine refuses
/// `available: false` for them.
public enum FeatureCatalogue {
    /// Every feature's capabilities, in catalogue order.
    public static let all: [FeatureCapabilities] = Feature.allCases.map(capabilities(of:))

    /// The capabilities of `feature`.
    public static func capabilities(of feature: Feature) -> FeatureCapabilities {
        let v = { (major: Int, minor: Int) in SemanticVersion(major: major, minor: minor) }
        // The four statuses almost every framework shares, from the feature's introduction.
        func standard(_ since: SemanticVersion, restricted: Bool = true) -> [AuthorizationStatus: SemanticVersion] {
            var statuses: [AuthorizationStatus: SemanticVersion] = [
                .notDetermined: since, .authorized: since, .denied: since,
            ]
            if restricted { statuses[.restricted] = since }
            return statuses
        }
        func make(
            _ introduced: SemanticVersion,
            extra: [AuthorizationStatus: SemanticVersion] = [:],
            restricted: Bool = true,
            button: (ButtonKind, SemanticVersion)? = nil,
            mayBeUnavailable: Bool = false,
            asksOnce: Bool = false
        ) -> FeatureCapabilities {
            FeatureCapabilities(
                feature: feature,
                introduced: introduced,
                statuses: standard(introduced, restricted: restricted).merging(extra) { _, new in new },
                button: button.map { (kind: $0.0, since: $0.1) },
                mayBeUnavailable: mayBeUnavailable,
                asksOnce: asksOnce
            )
        }
        switch feature {
        // AVCaptureDevice.authorizationStatus(for:) (iOS 7); a device or simulator may have no camera
        // (UIImagePickerController.isSourceTypeAvailable(.camera) false, AVCaptureDevice.default(for: .video) nil).
        case .camera: return make(v(7, 0), mayBeUnavailable: true)
        // AVAudioSession.isInputAvailable is false without an audio input (an iPad app on a Mac without one).
        case .microphone: return make(v(7, 0), mayBeUnavailable: true)
        // PHAuthorizationStatus.limited (iOS 14) for readWrite access; a device may have no photo library
        // source (UIImagePickerController.isSourceTypeAvailable(.photoLibrary) false).
        case .photos: return make(v(8, 0), extra: [.limited: v(14, 0)], mayBeUnavailable: true)
        // CNAuthorizationStatus.limited and ContactAccessButton (iOS 18).
        case .contacts: return make(v(9, 0), extra: [.limited: v(18, 0)], button: (.contactAccessButton, v(18, 0)))
        // CLAccuracyAuthorization.reducedAccuracy (iOS 14); LocationButton (iOS 15).
        case .locationWhenInUse:
            return make(v(8, 0), extra: [.reducedAccuracy: v(14, 0)], button: (.locationButton, v(15, 0)))
        // authorizedWhenInUse is a partial grant when Always was asked for.
        case .locationAlways: return make(v(8, 0), extra: [.whenInUse: v(8, 0), .reducedAccuracy: v(14, 0)])
        // UNAuthorizationStatus: no restricted case; provisional (iOS 12), ephemeral (iOS 14, App Clips).
        case .notifications:
            return make(v(10, 0), extra: [.provisional: v(12, 0), .ephemeral: v(14, 0)], restricted: false)
        // ATTrackingManager (iOS 14): the system alert shows once per install.
        case .tracking: return make(v(14, 0), asksOnce: true)
        // CBManager.authorization (iOS 13); the radio may be unsupported or off.
        case .bluetooth: return make(v(13, 0), mayBeUnavailable: true)
        // EKAuthorizationStatus.writeOnly (iOS 17); fullAccess is `authorized`.
        case .calendars: return make(v(6, 0), extra: [.writeOnly: v(17, 0)])
        // Reminders have full access only (requestFullAccessToReminders).
        case .reminders: return make(v(6, 0))
        // CMMotionActivityManager.authorizationStatus (iOS 11); isActivityAvailable may be false.
        case .motion: return make(v(11, 0), mayBeUnavailable: true)
        // SFSpeechRecognizer (iOS 10); a recognizer may be unavailable for a locale or offline.
        case .speech: return make(v(10, 0), mayBeUnavailable: true)
        // HealthKit (iOS 8): per-type sharing statuses, no restricted; unavailable on some iPads.
        case .health: return make(v(8, 0), restricted: false, mayBeUnavailable: true)
        // Local network privacy (iOS 14): no status API, only the outcome of the first access.
        case .localNetwork: return make(v(14, 0), restricted: false)
        }
    }
}
