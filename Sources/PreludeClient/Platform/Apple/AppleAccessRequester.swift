// Apple platforms only (UIKit or AppKit present): not part of a Linux build. scripts/check-apple-sources.sh
// type-checks it on Linux against stubs of Apple's documented declarations (scripts/apple-stubs); it has never
// run on a device. One framework call per feature; the purpose-string check before it and the mapping after it
// are platform-free and tested.
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
            case .locationWhenInUse, .locationAlways, .bluetooth, .motion, .speech, .health, .localNetwork:
                return nil
            }
        }
    }
#endif
