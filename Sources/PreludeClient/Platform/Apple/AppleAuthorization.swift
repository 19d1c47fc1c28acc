// Apple platforms only (UIKit or AppKit present): not part of a Linux build. scripts/check-apple-sources.sh
// type-checks it on Linux against stubs of Apple's documented declarations (scripts/apple-stubs); it has never
// run on a device. The two types that call Apple's authorization APIs share this file and its one list of
// framework imports: `AppleAccessRequester` (the purpose-string check, then one request call per framework) and
// `AppleStatusReader` (one status call per framework). Each call hands its raw value to the platform-free
// `AppleStatusMapping`, which is what the tests cover. Keep it that way: no logic here beyond the calls.
#if canImport(UIKit) || canImport(AppKit)
    import PreludeCore

    #if canImport(AVFoundation)
        import AVFoundation
    #endif
    #if canImport(Photos)
        import Photos
    #endif
    #if canImport(Contacts)
        import Contacts
    #endif
    #if canImport(CoreLocation)
        import CoreLocation
    #endif
    #if canImport(UserNotifications)
        import UserNotifications
    #endif
    #if canImport(AppTrackingTransparency)
        import AppTrackingTransparency
    #endif
    #if canImport(EventKit)
        import EventKit
    #endif
    #if canImport(AlarmKit)
        import AlarmKit
    #endif

    /// Fires the system permission alert for a feature, after checking its purpose strings (Apple platforms only).
    public enum AppleAccessRequester {
        /// Checks `check` for the feature's purpose strings, then asks the OS; returns the status afterwards, or
        /// nil when this build cannot request the feature itself (location: request through your
        /// `CLLocationManager` or `LocationButton` and report the status the delegate gives; Bluetooth, motion,
        /// speech, health, local network: the app asks).
        ///
        /// - Throws: ``MissingUsageDescription`` before any OS call when a purpose string is missing.
        public static func request(
            _ feature: Feature, check: UsageDescriptionCheck, osVersion: SemanticVersion? = nil
        ) async throws(MissingUsageDescription) -> AuthorizationStatus? {
            let missing = check.missingKeys(for: feature, osVersion: osVersion)
            guard missing.isEmpty else { throw MissingUsageDescription(feature: feature, keys: missing) }
            switch feature {
            case .camera, .microphone:
                #if canImport(AVFoundation)
                    let media: AVMediaType = feature == .camera ? .video : .audio
                    _ = await AVCaptureDevice.requestAccess(for: media)
                    return AppleStatusMapping.captureDevice(AVCaptureDevice.authorizationStatus(for: media).rawValue)
                #else
                    return nil
                #endif
            case .photos:
                #if canImport(Photos)
                    let status = await PHPhotoLibrary.requestAuthorization(for: .readWrite)
                    return AppleStatusMapping.photos(status.rawValue)
                #else
                    return nil
                #endif
            case .contacts:
                #if canImport(Contacts)
                    // A refusal is reported as an error too; the status afterwards says what happened either way.
                    _ = try? await CNContactStore().requestAccess(for: .contacts)
                    return AppleStatusMapping.contacts(CNContactStore.authorizationStatus(for: .contacts).rawValue)
                #else
                    return nil
                #endif
            case .notifications:
                #if canImport(UserNotifications)
                    let center = UNUserNotificationCenter.current()
                    _ = try? await center.requestAuthorization(options: [.alert, .badge, .sound])
                    return AppleStatusMapping.notifications(
                        await center.notificationSettings().authorizationStatus.rawValue)
                #else
                    return nil
                #endif
            case .tracking:
                #if canImport(AppTrackingTransparency)
                    // iOS 27.2: the expanded, full-page request (NSUserTrackingMarkdownUsageDescription, falling back
                    // to NSUserTrackingUsageDescription). A return still notDetermined is the "Additional
                    // Information" exit, which PermissionFlow records as such.
                    if #available(iOS 27.2, *) {
                        let status = await ATTrackingManager.requestTrackingAuthorization(
                            usingExpandedInterface: true, additionalInformationAction: nil)
                        return AppleStatusMapping.tracking(Int(status.rawValue))
                    }
                    let status = await ATTrackingManager.requestTrackingAuthorization()
                    return AppleStatusMapping.tracking(Int(status.rawValue))
                #else
                    return nil
                #endif
            case .calendars, .reminders:
                #if canImport(EventKit)
                    let store = EKEventStore()
                    let entity: EKEntityType = feature == .calendars ? .event : .reminder
                    if #available(iOS 17.0, macOS 14.0, *) {
                        if feature == .calendars {
                            _ = try? await store.requestFullAccessToEvents()
                        } else {
                            _ = try? await store.requestFullAccessToReminders()
                        }
                    } else {
                        _ = try? await store.requestAccess(to: entity)
                    }
                    return AppleStatusMapping.eventKit(
                        EKEventStore.authorizationStatus(for: entity).rawValue, feature: feature)
                #else
                    return nil
                #endif
            case .alarms:
                #if canImport(AlarmKit)
                    // Prompts only if never asked; afterwards it returns the state without a prompt.
                    if #available(iOS 26.0, *) {
                        let state = try? await AlarmManager.shared.requestAuthorization()
                        return state.map { AppleStatusMapping.alarmKit(caseName: String(describing: $0)) }
                    }
                    return nil
                #else
                    return nil
                #endif
            case .locationWhenInUse, .locationAlways, .bluetooth, .motion, .speech, .health, .localNetwork,
                .aiDataSharing:
                return nil
            }
        }
    }

    /// Reads the live OS status of each feature from Apple's frameworks (Apple platforms only).
    public enum AppleStatusReader {
        /// The current status of `feature`, or nil when this build has no reader for it (Bluetooth, motion,
        /// speech, health, local network: the app reports those itself).
        public static func status(of feature: Feature) async -> AuthorizationStatus? {
            switch feature {
            case .camera: return captureDevice(video: true)
            case .microphone: return captureDevice(video: false)
            case .photos: return photos()
            case .contacts: return contacts()
            case .locationWhenInUse, .locationAlways: return location(feature)
            case .notifications: return await notifications()
            case .tracking: return tracking()
            case .calendars, .reminders: return eventKit(feature)
            case .alarms: return alarms()
            case .bluetooth, .motion, .speech, .health, .localNetwork, .aiDataSharing: return nil
            }
        }

        /// Whether the camera exists (a simulator or some iPads without a rear camera have none).
        public static func cameraAvailable() -> Bool {
            #if canImport(AVFoundation) && os(iOS)
                return AVCaptureDevice.default(for: .video) != nil
            #else
                return false
            #endif
        }

        private static func captureDevice(video: Bool) -> AuthorizationStatus? {
            #if canImport(AVFoundation)
                return AppleStatusMapping.captureDevice(
                    AVCaptureDevice.authorizationStatus(for: video ? .video : .audio).rawValue)
            #else
                return nil
            #endif
        }

        private static func photos() -> AuthorizationStatus? {
            #if canImport(Photos)
                // The read-write level: `limited` exists only there (iOS 14).
                return AppleStatusMapping.photos(PHPhotoLibrary.authorizationStatus(for: .readWrite).rawValue)
            #else
                return nil
            #endif
        }

        private static func contacts() -> AuthorizationStatus? {
            #if canImport(Contacts)
                return AppleStatusMapping.contacts(CNContactStore.authorizationStatus(for: .contacts).rawValue)
            #else
                return nil
            #endif
        }

        private static func location(_ feature: Feature) -> AuthorizationStatus? {
            #if canImport(CoreLocation)
                let manager = CLLocationManager()
                return AppleStatusMapping.location(
                    Int(manager.authorizationStatus.rawValue), accuracy: manager.accuracyAuthorization.rawValue,
                    feature: feature, servicesEnabled: CLLocationManager.locationServicesEnabled())
            #else
                return nil
            #endif
        }

        private static func notifications() async -> AuthorizationStatus? {
            #if canImport(UserNotifications)
                let settings = await UNUserNotificationCenter.current().notificationSettings()
                return AppleStatusMapping.notifications(settings.authorizationStatus.rawValue)
            #else
                return nil
            #endif
        }

        private static func tracking() -> AuthorizationStatus? {
            #if canImport(AppTrackingTransparency)
                return AppleStatusMapping.tracking(Int(ATTrackingManager.trackingAuthorizationStatus.rawValue))
            #else
                return nil
            #endif
        }

        private static func eventKit(_ feature: Feature) -> AuthorizationStatus? {
            #if canImport(EventKit)
                let entity: EKEntityType = feature == .calendars ? .event : .reminder
                return AppleStatusMapping.eventKit(
                    EKEventStore.authorizationStatus(for: entity).rawValue, feature: feature)
            #else
                return nil
            #endif
        }

        private static func alarms() -> AuthorizationStatus? {
            #if canImport(AlarmKit)
                if #available(iOS 26.0, *) {
                    return AppleStatusMapping.alarmKit(
                        caseName: String(describing: AlarmManager.shared.authorizationState))
                }
                return nil
            #else
                return nil
            #endif
        }
    }
#endif
