import PreludeClient
import PreludeCore

/// The seed flows, played as an app would play them through PermissionFlow (docs/client.md, "Permission flows").
enum Scenarios {
    /// One seed flow: its name, the device's OS, locale and platform, and the script playing it.
    typealias Scenario = (
        name: String, os: String, locale: String, platform: Platform, play: @Sendable (DemoApp) async throws -> Void
    )

    /// Every flow, in the order played; each script checks the events it expects the client to queue.
    static let all: [Scenario] = [
        ("camera-priming-accepted", "17.4", "fr", .ios, cameraPrimingAccepted),
        ("camera-priming-left-reshown", "17.4", "en", .ios, cameraPrimingLeftThenReshown),
        ("camera-denied-settings-back", "17.4", "zh-Hans", .ios, cameraDeniedSettingsAndBack),
        ("camera-unavailable", "17.4", "en", .ios, cameraUnavailable),
        ("photos-denied-page", "17.4", "en", .ios, photosDeniedPage),
        ("photos-unavailable", "17.4", "en", .ios, photosUnavailable),
        ("contacts-limited-ios18", "18.1", "ja", .ios, contactsLimitedIOS18),
        ("tracking-asked-once", "17.4", "en", .ios, trackingAskedOnce),
        ("location-button-ios15", "15.0", "en", .ios, locationButtonIOS15),
        ("camera-not-at-launch", "17.4", "en", .ios, cameraNotAtLaunch),
        ("photos-changed-in-settings", "17.4", "en", .ios, photosChangedInSettings),
        ("photos-picker-arm", "17.4", "fr", .ios, photosPickerArm),
        // The iPad is the segment the demo's targeting rules move to the contact access picker and the event editor.
        ("contacts-access-picker-ipad", "18.1", "ja", .ipados, contactsAccessPickerIPad),
        ("calendars-event-editor-ipad", "17.4", "en", .ipados, calendarsEventEditorIPad),
        // iOS 27 (docs/catalogue.md): tracking's expanded request, and an app-level consent.
        ("tracking-exit-without-decision", "27.2", "en", .ios, trackingExitWithoutDecision),
        ("tracking-system-reask-ios27", "27.2", "en", .ios, trackingSystemReask),
        ("consent-ai-data-sharing", "17.4", "fr", .ios, consentAIDataSharing),
        ("health-read-not-knowable", "27.0", "en", .ios, healthReadNotKnowable),
    ]

    // HealthKit on iOS 27 (docs/catalogue.md): the request completes and HealthKit tells nothing of reading (the
    // app, asking to read only, still reads notDetermined), so the flow sends `systemPromptCompleted` — never
    // `systemGranted` or `systemDenied` — and the ledger records the prompt: `statusNotKnowable`, never a re-prime.
    // A day later the app discovers a limited-history grant (earliestAuthorizedSampleDate) and reports it: a partial
    // grant that proceeds.
    static func healthReadNotKnowable(_ app: DemoApp) async throws {
        try app.expect(try await app.flow.screen(for: .health), .prime)
        try await app.flow.shown(.health)
        try app.expect(try await app.flow.continued(.health), .proceed, .statusNotKnowable)
        app.clock.advance(hours: 24)
        app.device.setStatus(.limited, for: .health)
        try app.expect(try await app.flow.screen(for: .health), .proceed, .partialProceed)
        guard app.device.requests == [.health] else {
            throw DemoFailure(description: "\(app.name): requests \(app.device.requests)")
        }
        try await app.expectEvents([.primeShown, .primeAccepted, .systemPromptCompleted])
    }

    // The expanded request left through "Additional Information": only the exit event, and the next decision is the
    // system alert the person agreed to, answered this time.
    static func trackingExitWithoutDecision(_ app: DemoApp) async throws {
        try app.expect(try await app.flow.screen(for: .tracking), .prime)
        try await app.flow.shown(.tracking)
        // No answer: the request returns with the status still notDetermined.
        try app.expect(try await app.flow.continued(.tracking), .systemPrompt, .primeAlreadyAccepted)
        app.device.answerNextRequest(.tracking, with: .authorized)
        try app.expect(try await app.flow.continued(.tracking), .proceed, .authorized)
        try await app.expectEvents([.primeShown, .primeAccepted, .systemExitedWithoutDecision, .systemGranted])
    }

    // iOS 27.2 with no storefront known (the reference client reads none): the system may ask again, so a refusal is
    // `systemOwnsReask`, and later (a week here: the server refuses events dated far ahead of its clock), the status
    // reopened by the system, its own re-ask — never ours.
    static func trackingSystemReask(_ app: DemoApp) async throws {
        try app.expect(try await app.flow.screen(for: .tracking), .prime)
        try await app.flow.shown(.tracking)
        app.device.answerNextRequest(.tracking, with: .denied)
        try app.expect(try await app.flow.continued(.tracking), .deniedScreen, .systemOwnsReask)
        app.clock.advance(hours: 24 * 7)
        app.device.setStatus(.notDetermined, for: .tracking)
        try app.expect(try await app.flow.screen(for: .tracking), .systemPrompt, .systemReask)
        app.device.answerNextRequest(.tracking, with: .authorized)
        try app.expect(try await app.flow.continued(.tracking), .proceed, .authorized)
        try await app.expectEvents([.primeShown, .primeAccepted, .systemDenied, .systemGranted])
    }

    // The demo's "Smart summaries" consent (App Review 5.1.2(i)): declined on its own screen, explained, then given
    // from the app's settings. No OS prompt at any point.
    static func consentAIDataSharing(_ app: DemoApp) async throws {
        let screen = try await app.flow.screen(for: .aiDataSharing)
        try app.expect(screen, .prime, .consentScreen)
        guard screen.copy[.cancelLabel] == "Ne pas autoriser" else {
            throw DemoFailure(description: "\(app.name): consent screen \(screen)")
        }
        try await app.flow.shown(.aiDataSharing)
        try app.expect(try await app.flow.declined(.aiDataSharing), .deniedScreen, .consentDeclined)
        try await app.client.setConsent(.aiDataSharing, granted: true)
        try app.expect(try await app.flow.screen(for: .aiDataSharing), .proceed, .consentGranted)
        guard app.device.requests.isEmpty else { throw DemoFailure(description: "\(app.name): asked the OS") }
        try await app.expectEvents([.primeShown, .primeDismissed, .systemDenied])
    }

    // Ask less (docs/catalogue.md): the picker arm of photos-ask-vs-picker presents PhotosPicker, never asks, and
    // records no permission event; after a refusal made elsewhere too.
    // The app marks the task (docs/client.md, "Marking a task"): both events carry the picker arm, and the server
    // stores them for the experiment's task-success results.
    static func photosPickerArm(_ app: DemoApp) async throws {
        try await app.flow.taskStarted(.photos, task: "attach-photo")
        let picker = try await app.flow.screen(for: .photos)
        try app.expect(picker, .permissionless, .permissionlessStrategy)
        guard picker.path == .photosPicker, picker.variant?.variant == "picker" else {
            throw DemoFailure(description: "\(app.name): \(picker.path.map(\.rawValue) ?? "no path") \(picker)")
        }
        try await app.flow.taskCompleted(.photos, task: "attach-photo")  // a photo came back from PhotosPicker
        app.device.setStatus(.denied, for: .photos)
        try app.expect(try await app.flow.screen(for: .photos), .permissionless, .permissionlessStrategy)
        guard app.device.requests.isEmpty else { throw DemoFailure(description: "\(app.name): asked") }
        try await app.expectEvents([.taskStarted, .taskCompleted])
        guard await app.client.queuedEvents.allSatisfy({ $0.variant == "picker" && $0.task == "attach-photo" }) else {
            throw DemoFailure(description: "\(app.name): task events \(await app.client.queuedEvents)")
        }
    }

    // contact-access-button-ios18.ja on an iPad (rule contact-access-picker-ipad): limited contacts are extended in
    // bulk with contactAccessPicker, on the upgrade screen's words; requesting access again would show nothing.
    static func contactsAccessPickerIPad(_ app: DemoApp) async throws {
        app.device.setStatus(.limited, for: .contacts)
        let picker = try await app.flow.screen(for: .contacts)
        try app.expect(picker, .contactAccessPicker, .partialUpgradeEligible)
        guard picker.screen == .upgrade, picker.copy[.title] == "連絡先を追加で共有" else {
            throw DemoFailure(description: "\(app.name): picker screen \(picker)")
        }
        try await app.flow.shown(.contacts)
        // The person added friends in the picker: still limited, a larger set; the upgrade cadence now waits.
        try app.expect(try await app.flow.buttonResult(.contacts, granted: true), .proceed, .partialUpgradeNotDue)
        guard app.device.requests.isEmpty else { throw DemoFailure(description: "\(app.name): asked") }
        try await app.expectEvents([.limitedPickerShown, .systemGranted])
    }

    // Ask less per segment (rule event-editor-ipad-ios17): on an iPad a booking is added with EventKitUI's editor,
    // which needs no calendar access on iPadOS 17, whatever the status; the task is marked, and nothing is asked.
    static func calendarsEventEditorIPad(_ app: DemoApp) async throws {
        for status in [AuthorizationStatus.notDetermined, .writeOnly, .denied] {
            app.device.setStatus(status, for: .calendars)
            try await app.flow.taskStarted(.calendars, task: "add-booking")
            let editor = try await app.flow.screen(for: .calendars)
            try app.expect(editor, .permissionless, .permissionlessStrategy)
            guard editor.path == .eventEditor else {
                throw DemoFailure(description: "\(app.name): \(status): \(editor.path.map(\.rawValue) ?? "no path")")
            }
            try await app.flow.taskCompleted(.calendars, task: "add-booking")  // the person saved the event
        }
        guard app.device.requests.isEmpty else { throw DemoFailure(description: "\(app.name): asked") }
        try await app.expectEvents(Array(repeating: [.taskStarted, .taskCompleted], count: 3).flatMap { $0 })
    }

    // permission-priming-camera.fr: priming, Continue, the system alert, granted.
    static func cameraPrimingAccepted(_ app: DemoApp) async throws {
        let prime = try await app.flow.screen(for: .camera)
        try app.expect(prime, .prime, .primeEligible)
        guard prime.copy[.continueLabel] == "Continuer", prime.copy[.cancelLabel] == nil else {
            throw DemoFailure(description: "\(app.name): priming copy \(prime.copy)")
        }
        try await app.flow.shown(.camera)
        app.device.answerNextRequest(.camera, with: .authorized)
        try app.expect(try await app.flow.continued(.camera), .proceed, .authorized)
        try await app.expectEvents([.primeShown, .primeAccepted, .systemGranted])
    }

    // Left without continuing; nothing before the 72 h interval; shown again, continued, denied → Settings nudge.
    static func cameraPrimingLeftThenReshown(_ app: DemoApp) async throws {
        try app.expect(try await app.flow.screen(for: .camera), .prime)
        try await app.flow.shown(.camera)
        try await app.flow.left(.camera)
        app.clock.advance(hours: 1)
        let wait = try await app.flow.screen(for: .camera)
        try app.expect(wait, .wait, .primeCadenceWaiting)
        app.clock.advance(hours: 72)
        try app.expect(try await app.flow.screen(for: .camera), .prime, .primeEligible)
        try await app.flow.shown(.camera)
        app.device.answerNextRequest(.camera, with: .denied)
        try app.expect(try await app.flow.continued(.camera), .openSettings, .settingsNudgeEligible)
        try await app.expectEvents([.primeShown, .primeShown, .primeAccepted, .systemDenied])
    }

    // camera-authorization-flow.zh-Hans: denied → leave the screen, nudge, Settings 200 ms after the tap, back on.
    static func cameraDeniedSettingsAndBack(_ app: DemoApp) async throws {
        app.device.setStatus(.denied, for: .camera)
        let nudge = try await app.flow.screen(for: .camera)
        try app.expect(nudge, .openSettings)
        guard nudge.settingsDelayMs == 200, nudge.leaveScreenFirst == true else {
            throw DemoFailure(description: "\(app.name): nudge \(nudge)")
        }
        try await app.flow.shown(.camera)
        try await app.flow.continued(.camera)
        guard app.device.settingsOpenings == [200] else {
            throw DemoFailure(description: "\(app.name): Settings opened \(app.device.settingsOpenings)")
        }
        app.device.setStatus(.authorized, for: .camera)
        try app.expect(try await app.flow.becameActive()[.camera], .proceed)
        try await app.expectEvents([.settingsShown, .settingsOpened, .returnedGranted])
    }

    static func cameraUnavailable(_ app: DemoApp) async throws {
        app.device.setAvailable(false, for: .camera)
        try app.expect(try await app.flow.screen(for: .camera), .unsupported, .hardwareUnavailable)
        try await app.flow.shown(.camera)
        try await app.expectEvents([.unsupportedShown])
    }

    // camera-photos-authorization.zh-Hant: the nudge once, then an explanatory denied page, never a blank one.
    static func photosDeniedPage(_ app: DemoApp) async throws {
        app.device.setStatus(.denied, for: .photos)
        try app.expect(try await app.flow.screen(for: .photos), .openSettings)
        try await app.flow.shown(.photos)
        try await app.flow.dismissed(.photos)
        app.clock.advance(hours: 1)
        let page = try await app.flow.screen(for: .photos)
        try app.expect(page, .deniedScreen, .settingsNudgeNotDue)
        guard page.copy[.title]?.isEmpty == false, page.copy[.message]?.isEmpty == false else {
            throw DemoFailure(description: "\(app.name): a denied page without copy")
        }
        try await app.flow.shown(.photos)
        try await app.expectEvents([.settingsShown, .settingsDismissed, .deniedShown])
    }

    static func photosUnavailable(_ app: DemoApp) async throws {
        app.device.setAvailable(false, for: .photos)
        try app.expect(try await app.flow.screen(for: .photos), .unsupported, .hardwareUnavailable)
        try await app.flow.shown(.photos)
        try await app.expectEvents([.unsupportedShown])
    }

    // contact-access-button-ios18.ja: ContactAccessButton while notDetermined, and again once access is limited.
    static func contactsLimitedIOS18(_ app: DemoApp) async throws {
        try app.expect(try await app.flow.screen(for: .contacts), .contactAccessButton, .buttonStrategy)
        try await app.flow.shown(.contacts)
        app.device.setStatus(.limited, for: .contacts)  // the person shared one contact through the button
        try app.expect(
            try await app.flow.buttonResult(.contacts, granted: true), .contactAccessButton, .partialButton)
        try await app.expectEvents([.buttonShown, .systemGranted])
    }

    // hig-accessing-user-data.ja: one pre-prompt, one alert per install, then the denied page for good.
    static func trackingAskedOnce(_ app: DemoApp) async throws {
        try app.expect(try await app.flow.screen(for: .tracking), .prime)
        try await app.flow.shown(.tracking)
        app.device.answerNextRequest(.tracking, with: .denied)
        try app.expect(try await app.flow.continued(.tracking), .deniedScreen, .trackingAskedOnce)
        try await app.flow.shown(.tracking)
        app.clock.advance(hours: 24 * 7)
        try app.expect(try await app.flow.screen(for: .tracking), .deniedScreen, .trackingAskedOnce)
        try await app.expectEvents([.primeShown, .primeAccepted, .systemDenied, .deniedShown])
    }

    // Location Button on iOS 15: one tap grants in-line.
    static func locationButtonIOS15(_ app: DemoApp) async throws {
        try app.expect(try await app.flow.screen(for: .locationWhenInUse), .locationButton, .buttonStrategy)
        try await app.flow.shown(.locationWhenInUse)
        app.device.setStatus(.authorized, for: .locationWhenInUse)
        try app.expect(try await app.flow.buttonResult(.locationWhenInUse, granted: true), .proceed)
        try await app.expectEvents([.buttonShown, .systemGranted])
    }

    // HIG: nothing at launch for a feature the app can work without; priming when the feature is used.
    static func cameraNotAtLaunch(_ app: DemoApp) async throws {
        try app.expect(try await app.flow.screen(for: .camera, origin: .launch), .askInContext, .launchNotAllowed)
        try app.expect(try await app.flow.screen(for: .camera), .prime)
        try await app.expectEvents([])
    }

    // Access turned off in Settings while the app was in the background: its own event, then the nudge.
    static func photosChangedInSettings(_ app: DemoApp) async throws {
        app.device.setStatus(.authorized, for: .photos)
        try app.expect(try await app.flow.screen(for: .photos), .proceed)
        app.device.setStatus(.denied, for: .photos)
        try app.expect(try await app.flow.becameActive()[.photos], .openSettings)
        try await app.expectEvents([.statusChangedOutsideApp])
    }
}
