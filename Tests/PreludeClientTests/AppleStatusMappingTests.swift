import PreludeClient
import PreludeCore
import Testing

/// Apple's raw values, value by value, against the engine's statuses (sources cited in AppleStatusMapping).
@Suite struct AppleStatusMappingTests {
    @Test(arguments: [
        (0, AuthorizationStatus.notDetermined), (1, .restricted), (2, .denied), (3, .authorized),
    ])
    func captureDeviceValues(raw: Int, expected: AuthorizationStatus) {
        #expect(AppleStatusMapping.captureDevice(raw) == expected)
    }

    @Test(arguments: [
        (0, AuthorizationStatus.notDetermined), (1, .restricted), (2, .denied), (3, .authorized), (4, .limited),
    ])
    func photosValues(raw: Int, expected: AuthorizationStatus) {
        #expect(AppleStatusMapping.photos(raw) == expected)
    }

    @Test(arguments: [
        (0, AuthorizationStatus.notDetermined), (1, .restricted), (2, .denied), (3, .authorized), (4, .limited),
    ])
    func contactsValues(raw: Int, expected: AuthorizationStatus) {
        #expect(AppleStatusMapping.contacts(raw) == expected)
    }

    @Test(arguments: [
        (0, AuthorizationStatus.notDetermined), (1, .denied), (2, .authorized), (3, .provisional), (4, .ephemeral),
    ])
    func notificationValues(raw: Int, expected: AuthorizationStatus) {
        #expect(AppleStatusMapping.notifications(raw) == expected)
    }

    @Test(arguments: [
        (0, AuthorizationStatus.notDetermined), (1, .restricted), (2, .denied), (3, .authorized),
    ])
    func trackingValues(raw: Int, expected: AuthorizationStatus) {
        #expect(AppleStatusMapping.tracking(raw) == expected)
    }

    @Test(arguments: [
        (0, AuthorizationStatus.notDetermined), (1, .restricted), (2, .denied), (3, .authorized), (4, .writeOnly),
    ])
    func calendarValues(raw: Int, expected: AuthorizationStatus) {
        #expect(AppleStatusMapping.eventKit(raw, feature: .calendars) == expected)
    }

    @Test func remindersHaveNoWriteOnlyLevel() {
        #expect(AppleStatusMapping.eventKit(3, feature: .reminders) == .authorized)
        #expect(AppleStatusMapping.eventKit(4, feature: .reminders) == AppleStatusMapping.unknownFallback)
    }

    /// (status, accuracy, expected for locationWhenInUse, expected for locationAlways)
    @Test(
        arguments: [
            (0, nil, AuthorizationStatus.notDetermined, AuthorizationStatus.notDetermined),
            (1, nil, .restricted, .restricted),
            (2, nil, .denied, .denied),
            (3, nil, .authorized, .authorized),
            (4, nil, .authorized, .whenInUse),
            (3, 0, .authorized, .authorized),
            (4, 0, .authorized, .whenInUse),
            (3, 1, .reducedAccuracy, .reducedAccuracy),
            (4, 1, .reducedAccuracy, .whenInUse),
            (0, 1, .notDetermined, .notDetermined),
            (2, 1, .denied, .denied),
            (3, 7, .reducedAccuracy, .reducedAccuracy),
        ] as [(Int, Int?, AuthorizationStatus, AuthorizationStatus)])
    func locationValues(raw: Int, accuracy: Int?, whenInUse: AuthorizationStatus, always: AuthorizationStatus) {
        #expect(AppleStatusMapping.location(raw, accuracy: accuracy, feature: .locationWhenInUse) == whenInUse)
        #expect(AppleStatusMapping.location(raw, accuracy: accuracy, feature: .locationAlways) == always)
    }

    @Test(arguments: [-1, 5, 99, Int.max, Int.min])
    func unknownValuesFallBackToDenied(raw: Int) {
        #expect(AppleStatusMapping.unknownFallback == .denied)
        #expect(AppleStatusMapping.captureDevice(raw) == .denied)
        #expect(AppleStatusMapping.photos(raw) == .denied)
        #expect(AppleStatusMapping.contacts(raw) == .denied)
        #expect(AppleStatusMapping.notifications(raw) == .denied)
        #expect(AppleStatusMapping.tracking(raw) == .denied)
        #expect(AppleStatusMapping.eventKit(raw, feature: .calendars) == .denied)
        #expect(AppleStatusMapping.location(raw, accuracy: nil, feature: .locationWhenInUse) == .denied)
    }

    /// Every status a mapping produces is one the catalogue says the feature can report, so the engine
    /// never refuses a state the adapters build (`DecisionError.statusNotReported`).
    @Test func everyMappedStatusIsOneTheEngineAccepts() {
        let mapped: [(Feature, [AuthorizationStatus])] = [
            (.camera, (0...5).map(AppleStatusMapping.captureDevice)),
            (.microphone, (0...5).map(AppleStatusMapping.captureDevice)),
            (.photos, (0...5).map(AppleStatusMapping.photos)),
            (.contacts, (0...5).map(AppleStatusMapping.contacts)),
            (.notifications, (0...5).map(AppleStatusMapping.notifications)),
            (.tracking, (0...5).map(AppleStatusMapping.tracking)),
            (.calendars, (0...5).map { AppleStatusMapping.eventKit($0, feature: .calendars) }),
            (.reminders, (0...5).map { AppleStatusMapping.eventKit($0, feature: .reminders) }),
            (
                .locationWhenInUse,
                (0...5).flatMap { raw in
                    [nil, 0, 1].map { AppleStatusMapping.location(raw, accuracy: $0, feature: .locationWhenInUse) }
                }
            ),
            (
                .locationAlways,
                (0...5).flatMap { raw in
                    [nil, 0, 1].map { AppleStatusMapping.location(raw, accuracy: $0, feature: .locationAlways) }
                }
            ),
        ]
        for (feature, statuses) in mapped {
            for status in statuses {
                #expect(feature.capabilities.statuses[status] != nil, "\(feature) cannot report \(status)")
            }
        }
    }
}
