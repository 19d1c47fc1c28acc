import PreludeClient
import PreludeCore
import Synchronization
import Testing

/// The purpose-string table and the check run before every request (the lookup injected).
@Suite struct UsageDescriptionCheckTests {
    @Test(arguments: [
        (Feature.camera, ["NSCameraUsageDescription"]),
        (.microphone, ["NSMicrophoneUsageDescription"]),
        (.photos, ["NSPhotoLibraryUsageDescription"]),
        (.contacts, ["NSContactsUsageDescription"]),
        (.locationWhenInUse, ["NSLocationWhenInUseUsageDescription"]),
        (.locationAlways, ["NSLocationWhenInUseUsageDescription", "NSLocationAlwaysAndWhenInUseUsageDescription"]),
        (.notifications, []),
        (.tracking, ["NSUserTrackingUsageDescription"]),
        (.calendars, ["NSCalendarsFullAccessUsageDescription"]),
        (.reminders, ["NSRemindersFullAccessUsageDescription"]),
    ])
    func requiredKeysOnTheNewestOS(feature: Feature, keys: [String]) {
        #expect(UsageDescriptionCheck.requiredKeys(for: feature) == keys)
    }

    @Test func eventKitKeysBeforeIOS17() {
        let ios16 = SemanticVersion("16.4")
        #expect(
            UsageDescriptionCheck.requiredKeys(for: .calendars, osVersion: ios16) == ["NSCalendarsUsageDescription"])
        #expect(
            UsageDescriptionCheck.requiredKeys(for: .reminders, osVersion: ios16) == ["NSRemindersUsageDescription"])
        #expect(
            UsageDescriptionCheck.requiredKeys(for: .calendars, osVersion: SemanticVersion("17.0"))
                == ["NSCalendarsFullAccessUsageDescription"])
    }

    @Test func everyRequiredKeyIsAKnownPurposeStringKey() {
        for feature in Feature.allCases {
            for key in UsageDescriptionCheck.requiredKeys(for: feature) {
                #expect(PurposeStringKey.known.contains(key), "\(key)")
            }
        }
    }

    @Test func missingAndBlankKeysAreReported() {
        let check = UsageDescriptionCheck(strings: [
            "NSCameraUsageDescription": "Prelude uses the camera to scan documents.",
            "NSLocationWhenInUseUsageDescription": "  \n",
        ])
        #expect(check.missingKeys(for: .camera).isEmpty)
        #expect(check.canRequest(.camera))
        #expect(check.missingKeys(for: .contacts) == ["NSContactsUsageDescription"])
        #expect(!check.canRequest(.contacts))
        #expect(
            check.missingKeys(for: .locationAlways)
                == ["NSLocationWhenInUseUsageDescription", "NSLocationAlwaysAndWhenInUseUsageDescription"])
        #expect(check.canRequest(.notifications))
    }

    @Test func theLookupIsAskedForEachRequiredKey() {
        let asked = LookupLog()
        let check = UsageDescriptionCheck { key in
            asked.append(key)
            return "Set."
        }
        #expect(check.canRequest(.locationAlways))
        #expect(asked.keys == ["NSLocationWhenInUseUsageDescription", "NSLocationAlwaysAndWhenInUseUsageDescription"])
    }

    @Test func theRefusalNamesTheKeys() {
        let refusal = MissingUsageDescription(feature: .camera, keys: ["NSCameraUsageDescription"])
        #expect(refusal.description.contains("NSCameraUsageDescription"))
        #expect(refusal.description.contains("camera"))
    }
}

/// Keys asked by a lookup, in order.
private final class LookupLog: Sendable {
    private let log = Mutex<[String]>([])
    var keys: [String] { log.withLock { $0 } }
    func append(_ key: String) { log.withLock { $0.append(key) } }
}
