// Apple platforms only (UIKit or AppKit present): not part of a Linux build. scripts/check-apple-sources.sh
// type-checks it on Linux against stubs of Apple's documented declarations (scripts/apple-stubs); it has never
// run on a device. Each function is one framework call that hands its raw value to the platform-free
// `AppleStatusMapping`, which is what the tests cover. Keep it that way: no logic here beyond the call.
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
            case .bluetooth, .motion, .speech, .health, .localNetwork: return nil
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
