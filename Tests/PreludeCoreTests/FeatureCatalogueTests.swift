import Testing

@testable import PreludeCore

@Suite struct FeatureCatalogueTests {
    @Test func coversEveryFeature() {
        #expect(FeatureCatalogue.all.map(\.feature) == Feature.allCases)
        #expect(Feature.allCases.count == 17)
    }

    @Test(
        arguments: [
            (Feature.photos, AuthorizationStatus.limited, "14.0"),
            (.contacts, .limited, "18.0"),
            (.notifications, .provisional, "12.0"),
            (.notifications, .ephemeral, "14.0"),
            (.locationWhenInUse, .reducedAccuracy, "14.0"),
            (.locationAlways, .whenInUse, "8.0"),
            (.calendars, .writeOnly, "17.0"),
            (.tracking, .notDetermined, "14.0"),
            (.camera, .restricted, "7.0"),
        ] as [(Feature, AuthorizationStatus, String)])
    func knowsWhenEachStatusAppeared(feature: Feature, status: AuthorizationStatus, since: String) {
        #expect(feature.capabilities.statuses[status] == SemanticVersion(since))
    }

    @Test(
        arguments: [
            (Feature.camera, AuthorizationStatus.limited),
            (.microphone, .provisional),
            (.notifications, .restricted),
            (.reminders, .writeOnly),
            (.health, .restricted),
            (.photos, .writeOnly),
        ] as [(Feature, AuthorizationStatus)])
    func knowsStatusesAFeatureNeverReports(feature: Feature, status: AuthorizationStatus) {
        #expect(!feature.capabilities.reports(status))
    }

    @Test func knowsTheSystemButtons() {
        #expect(Feature.locationWhenInUse.capabilities.button?.kind == .locationButton)
        #expect(Feature.locationWhenInUse.capabilities.button?.since == SemanticVersion("15"))
        #expect(Feature.contacts.capabilities.button?.kind == .contactAccessButton)
        #expect(Feature.contacts.capabilities.button?.since == SemanticVersion("18"))
        let withButtons = Feature.allCases.filter { $0.capabilities.strategies.contains(.button) }
        #expect(withButtons == [.contacts, .locationWhenInUse])
    }

    @Test func trackingAsksOnceAndOthersDoNot() {
        // Among OS permissions; an app-level consent is answered once too (declining is an answer).
        let permissions = Feature.allCases.filter { $0.capabilities.kind == .osPermission }
        #expect(permissions.filter { $0.capabilities.asksOnce } == [.tracking])
        #expect(Feature.aiDataSharing.capabilities.asksOnce)
    }

    @Test func allowsPickerActionsOnlyWhereTheyExist() {
        #expect(Feature.photos.capabilities.partialActions(for: .limited).contains(.limitedPicker))
        #expect(!Feature.photos.capabilities.partialActions(for: .limited).contains(.contactAccessButton))
        #expect(Feature.contacts.capabilities.partialActions(for: .limited).contains(.contactAccessButton))
        #expect(Feature.notifications.capabilities.partialActions(for: .provisional) == [.proceed, .upgrade])
    }
}
