import Foundation
import PreludeClient
import PreludeCore
import Testing

/// The client's half of docs/catalogue.md: Apple's values for alarms and Location Services off, the Info.plist key
/// for photos' limited re-ask, the prompts the client records, and tracking's answer read again on becoming active.
@Suite struct CatalogueClientTests {
    @Test func alarmKitStatesMapByName() {
        #expect(AppleStatusMapping.alarmKit(caseName: "notDetermined") == .notDetermined)
        #expect(AppleStatusMapping.alarmKit(caseName: "denied") == .denied)
        #expect(AppleStatusMapping.alarmKit(caseName: "authorized") == .authorized)
        #expect(AppleStatusMapping.alarmKit(caseName: "somethingNew") == AppleStatusMapping.unknownFallback)
        for name in ["notDetermined", "denied", "authorized", "x"] {
            #expect(Feature.alarms.capabilities.reports(AppleStatusMapping.alarmKit(caseName: name)))
        }
    }

    @Test func locationServicesOffIsItsOwnStatus() {
        for raw in 0...4 {
            for feature in [Feature.locationWhenInUse, .locationAlways] {
                #expect(
                    AppleStatusMapping.location(raw, accuracy: 0, feature: feature, servicesEnabled: false)
                        == .deniedGlobally)
                #expect(
                    AppleStatusMapping.location(raw, accuracy: 0, feature: feature, servicesEnabled: true)
                        == AppleStatusMapping.location(raw, accuracy: 0, feature: feature))
            }
        }
    }

    @Test func theInfoPlistKeySaysWhoReasksAboutLimitedPhotos() {
        let key = UsageDescriptionCheck.preventAutomaticLimitedAccessAlertKey
        #expect(key == "PHPhotoLibraryPreventAutomaticLimitedAccessAlert")
        #expect(UsageDescriptionCheck(strings: [key: "true"]).preventsAutomaticLimitedAccessAlert)
        #expect(UsageDescriptionCheck(strings: [key: "YES"]).preventsAutomaticLimitedAccessAlert)
        #expect(!UsageDescriptionCheck(strings: [key: "false"]).preventsAutomaticLimitedAccessAlert)
        #expect(!UsageDescriptionCheck(strings: [:]).preventsAutomaticLimitedAccessAlert)
    }

    @Test func alarmsNeedTheirPurposeString() {
        #expect(UsageDescriptionCheck.requiredKeys(for: .alarms) == ["NSAlarmKitUsageDescription"])
        for feature in Feature.allCases {
            for key in UsageDescriptionCheck.requiredKeys(for: feature) {
                #expect(PurposeStringKey.known.contains(key), "\(key)")
            }
        }
    }

    @Test func trackingsAnswerIsReadAgainWhenTheAppBecomesActive() async throws {
        let h = try PermissionFlowTests.Harness()
        _ = try await h.flow.screen(for: .tracking)
        try await h.flow.shown(.tracking)
        // iOS 17.4: the request returned `denied` before the person chose; they then allowed tracking.
        h.device.answerNextRequest(.tracking, with: .denied)
        let after = try await h.flow.continued(.tracking)
        #expect(after?.action == .deniedScreen)
        h.device.setStatus(.authorized, for: .tracking)
        let changed = try await h.flow.becameActive()
        #expect(changed[.tracking]?.action == .proceed)
        #expect(await h.queued() == ["primeShown", "primeAccepted", "systemDenied", "systemGranted"])
        let granted = try #require(await h.client.queuedEvents.last)
        #expect(granted.type == .systemGranted && granted.feature == .tracking)
    }

    @Test func anotherFeaturesChangeIsStillOutsideTheApp() async throws {
        let h = try PermissionFlowTests.Harness()
        _ = try await h.flow.screen(for: .camera)
        try await h.flow.shown(.camera)
        h.device.answerNextRequest(.camera, with: .denied)
        _ = try await h.flow.continued(.camera)
        h.device.setStatus(.authorized, for: .camera)
        _ = try await h.flow.becameActive()
        #expect(await h.queued() == ["primeShown", "primeAccepted", "systemDenied", "statusChangedOutsideApp"])
    }

    @Test func theClientRecordsTheOneShotPrompts() async throws {
        let h = try PermissionFlowTests.Harness()
        for feature in [Feature.localNetwork, .camera] {
            _ = try await h.flow.screen(for: feature)
            try await h.flow.shown(feature)
            h.device.answerNextRequest(feature, with: .authorized)
            _ = try await h.flow.continued(feature)
        }
        let ledger = await h.client.cadenceLedger
        #expect(ledger.systemPromptShown(.localNetwork))
        #expect(!ledger.systemPromptShown(.camera))
    }
}
