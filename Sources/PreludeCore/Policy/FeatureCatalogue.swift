/// The facts about every feature: statuses, strategies, and the OS version (iOS numbering) where each appeared.
///
/// docs/catalogue.md is the same table for people, and `CatalogueDocTests` reads it back: a row that disagrees
/// with this file fails the build's tests. Sources, checked against Apple's documentation (each entry's
/// `applePage`, and):
/// - AlarmKit (iOS 26): https://developer.apple.com/documentation/alarmkit/alarmmanager/requestauthorization()
///   ("Requests permission to use the alarm system if it hasn't been requested before"),
///   https://developer.apple.com/documentation/bundleresources/information-property-list/nsalarmkitusagedescription
/// - Location Services off device-wide, and not in use enough to prompt (iOS 18):
///   https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/diagnostic
///   (`authorizationDeniedGlobally`, `insufficientlyInUse`)
/// - Calendars (iOS 17): https://developer.apple.com/documentation/eventkit/accessing-the-event-store,
///   https://developer.apple.com/documentation/eventkit/ekeventstore/requestfullaccesstoevents(completion:)
///   ("only prompts them the first time your app requests full access"),
///   https://developer.apple.com/documentation/bundleresources/information-property-list/nscalendarswriteonlyaccessusagedescription
///   (EKEventEditViewController needs no calendar access on iOS 17)
/// - Contacts (iOS 18): https://developer.apple.com/documentation/contacts/accessing-the-contact-store,
///   https://developer.apple.com/documentation/swiftui/view/contactaccesspicker(ispresented:completionhandler:)
/// - Photos: https://developer.apple.com/documentation/photos/phauthorizationstatus/limited
///   (`PHPhotoLibraryPreventAutomaticLimitedAccessAlert`)
/// - Local network: https://developer.apple.com/documentation/technotes/tn3179-understanding-local-network-privacy
/// - AccessorySetupKit (iOS 18): https://developer.apple.com/documentation/accessorysetupkit
/// - Tracking: https://developer.apple.com/documentation/apptrackingtransparency/attrackingmanager/requesttrackingauthorization(completionhandler:)
///   (prompts only while the app is active)
///
/// `mayBeUnavailable` is true where an API reports the hardware or source missing; the others (contacts,
/// location — Location Services turned off is the user's choice, reported as `deniedGlobally` —,
/// notifications, tracking, calendars, reminders, local network, alarms) exist on every device, and the engine
/// refuses `available: false` for them.
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
            asksOnce: Bool = false,
            promptRecordedByClient: Bool = false,
            statusKnowable: Bool = true,
            requestAnswerKnowable: Bool = true,
            upgradeAsksOnce: Bool = false,
            permissionless: (PermissionlessPath, SemanticVersion)? = nil,
            kind: FeatureKind = .osPermission,
            systemReask: FeatureCapabilities.SystemReask? = nil,
            reportedPartialGrant: String? = nil,
            purposeStrings: [String],
            page: String
        ) -> FeatureCapabilities {
            FeatureCapabilities(
                feature: feature,
                introduced: introduced,
                statuses: standard(introduced, restricted: restricted).merging(extra) { _, new in new },
                button: button.map { (kind: $0.0, since: $0.1) },
                mayBeUnavailable: mayBeUnavailable,
                asksOnce: asksOnce,
                promptRecordedByClient: promptRecordedByClient,
                statusKnowable: statusKnowable,
                requestAnswerKnowable: requestAnswerKnowable,
                upgradeAsksOnce: upgradeAsksOnce,
                permissionless: permissionless.map { (path: $0.0, since: $0.1) },
                purposeStrings: purposeStrings,
                applePage: page.hasPrefix("https://") ? page : "https://developer.apple.com/documentation/" + page,
                kind: kind,
                systemReask: systemReask,
                reportedPartialGrant: reportedPartialGrant
            )
        }
        switch feature {
        // AVCaptureDevice.authorizationStatus(for:) (iOS 7); a device or simulator may have no camera
        // (UIImagePickerController.isSourceTypeAvailable(.camera) false, AVCaptureDevice.default(for: .video) nil).
        case .camera:
            return make(
                v(7, 0), mayBeUnavailable: true, purposeStrings: ["NSCameraUsageDescription"],
                page: "avfoundation/avauthorizationstatus")
        // AVAudioSession.isInputAvailable is false without an audio input (an iPad app on a Mac without one).
        case .microphone:
            return make(
                v(7, 0), mayBeUnavailable: true, purposeStrings: ["NSMicrophoneUsageDescription"],
                page: "avfoundation/avauthorizationstatus")
        // PHAuthorizationStatus.limited (iOS 14) for readWrite access; a device may have no photo library
        // source (UIImagePickerController.isSourceTypeAvailable(.photoLibrary) false). PhotosPicker (iOS 14) needs
        // no access.
        case .photos:
            return make(
                v(8, 0), extra: [.limited: v(14, 0)], mayBeUnavailable: true,
                permissionless: (.photosPicker, v(14, 0)), purposeStrings: ["NSPhotoLibraryUsageDescription"],
                page: "photos/phauthorizationstatus")
        // CNAuthorizationStatus.limited and ContactAccessButton (iOS 18); CNContactPickerViewController (iOS 9)
        // needs no access.
        case .contacts:
            return make(
                v(9, 0), extra: [.limited: v(18, 0)], button: (.contactAccessButton, v(18, 0)),
                permissionless: (.contactPicker, v(9, 0)), purposeStrings: ["NSContactsUsageDescription"],
                page: "contacts/cnauthorizationstatus")
        // CLAccuracyAuthorization.reducedAccuracy (iOS 14); LocationButton (iOS 15); Location Services off for the
        // device (`locationServicesEnabled()`, iOS 4; CLServiceSession's authorizationDeniedGlobally, iOS 18).
        case .locationWhenInUse:
            return make(
                v(8, 0), extra: [.reducedAccuracy: v(14, 0), .deniedGlobally: v(8, 0)],
                button: (.locationButton, v(15, 0)), purposeStrings: ["NSLocationWhenInUseUsageDescription"],
                page: "corelocation/clauthorizationstatus")
        // authorizedWhenInUse is a partial grant when Always was asked for.
        case .locationAlways:
            return make(
                v(8, 0), extra: [.whenInUse: v(8, 0), .reducedAccuracy: v(14, 0), .deniedGlobally: v(8, 0)],
                purposeStrings: [
                    "NSLocationWhenInUseUsageDescription", "NSLocationAlwaysAndWhenInUseUsageDescription",
                ],
                page: "corelocation/clauthorizationstatus")
        // UNAuthorizationStatus: no restricted case; provisional (iOS 12), ephemeral (iOS 14, App Clips).
        case .notifications:
            return make(
                v(10, 0), extra: [.provisional: v(12, 0), .ephemeral: v(14, 0)], restricted: false,
                purposeStrings: [], page: "usernotifications/unauthorizationstatus")
        // ATTrackingManager (iOS 14): the system alert shows once per install, only while the app is active. iOS
        // 27.2's expanded request: Apple's header no longer calls the request one-time, and (reported, secondary
        // sources only) the system may ask again in EU storefronts — a re-ask of the system's, never of a cadence.
        case .tracking:
            return make(
                v(14, 0), asksOnce: true, promptRecordedByClient: true,
                systemReask: FeatureCapabilities.SystemReask(since: v(27, 2), regions: ["EU"]),
                purposeStrings: ["NSUserTrackingUsageDescription"],
                page: "apptrackingtransparency/attrackingmanager/authorizationstatus")
        // CBManager.authorization (iOS 13); the radio may be unsupported or off. AccessorySetupKit (iOS 18)
        // pairs one accessory with no Bluetooth prompt.
        case .bluetooth:
            return make(
                v(13, 0), mayBeUnavailable: true, permissionless: (.accessorySetup, v(18, 0)),
                purposeStrings: ["NSBluetoothAlwaysUsageDescription"], page: "corebluetooth/cbmanagerauthorization")
        // EKAuthorizationStatus.writeOnly (iOS 17); fullAccess is `authorized`. Write-only → full access is asked
        // once; EKEventEditViewController adds one event with no access (iOS 17).
        case .calendars:
            return make(
                v(6, 0), extra: [.writeOnly: v(17, 0)], upgradeAsksOnce: true,
                permissionless: (.eventEditor, v(17, 0)),
                purposeStrings: [
                    "NSCalendarsFullAccessUsageDescription", "NSCalendarsWriteOnlyAccessUsageDescription",
                ],
                page: "eventkit/ekauthorizationstatus")
        // Reminders have full access only (requestFullAccessToReminders).
        case .reminders:
            return make(
                v(6, 0), purposeStrings: ["NSRemindersFullAccessUsageDescription"],
                page: "eventkit/ekauthorizationstatus")
        // CMMotionActivityManager.authorizationStatus (iOS 11); isActivityAvailable may be false. iOS 27.2 adds
        // CMMotionManager.authorizationStatus for raw sensor data: the same CMAuthorizationStatus, the same
        // NSMotionUsageDescription and the same Motion & Fitness switch, so the same feature (docs/catalogue.md).
        case .motion:
            return make(
                v(11, 0), mayBeUnavailable: true, purposeStrings: ["NSMotionUsageDescription"],
                page: "coremotion/cmauthorizationstatus")
        // SFSpeechRecognizer (iOS 10); a recognizer may be unavailable for a locale or offline.
        case .speech:
            return make(
                v(10, 0), mayBeUnavailable: true, purposeStrings: ["NSSpeechRecognitionUsageDescription"],
                page: "speech/sfspeechrecognizerauthorizationstatus")
        // HealthKit (iOS 8): per-type sharing statuses, no restricted; unavailable on some iPads. Read access is
        // never reported ("your app doesn't know whether someone granted or denied permission to read data"): after
        // the request the ledger says it happened and nothing more is claimed (`systemPromptCompleted`, never
        // `systemGranted` or `systemDenied`, whatever sharing status the app reads). iOS 27: a person may grant only
        // recent history (`earliestAuthorizedSampleDate(for:)`), which the app reports as `limited`.
        case .health:
            return make(
                v(8, 0), extra: [.limited: v(27, 0)], restricted: false, mayBeUnavailable: true,
                promptRecordedByClient: true, statusKnowable: false, requestAnswerKnowable: false,
                reportedPartialGrant: "limited: read access to recent history only (HealthKit, iOS 27)",
                purposeStrings: ["NSHealthShareUsageDescription"],
                page: "healthkit/authorizing-access-to-health-data")
        // Local network privacy (iOS 14): no status API, only the outcome of the first access (TN3179). Wi-Fi Aware
        // (iOS 26) pairs a nearby device through DeviceDiscoveryUI or AccessorySetupKit, the pairing being the
        // consent.
        case .localNetwork:
            return make(
                v(14, 0), restricted: false, promptRecordedByClient: true, statusKnowable: false,
                permissionless: (.wifiAwarePairing, v(26, 0)),
                purposeStrings: ["NSLocalNetworkUsageDescription"],
                page: "technotes/tn3179-understanding-local-network-privacy")
        // AlarmManager.AuthorizationState (iOS 26): notDetermined, denied, authorized; requestAuthorization()
        // prompts only if never asked.
        case .alarms:
            return make(
                v(26, 0), restricted: false, promptRecordedByClient: true,
                purposeStrings: ["NSAlarmKitUsageDescription"],
                page: "alarmkit/alarmmanager/authorizationstate-swift.enum"
            )
        // An app-level consent: no OS API at all. Asked on the app's own screen (the priming screen), answered
        // once (declining is an answer: no cadence, no Settings nudge), recorded by the app.
        case .aiDataSharing:
            return make(
                v(0, 0), restricted: false, asksOnce: true, kind: .appConsent, purposeStrings: [],
                page: "https://developer.apple.com/app-store/review/guidelines/#data-collection-and-storage")
        }
    }
}
