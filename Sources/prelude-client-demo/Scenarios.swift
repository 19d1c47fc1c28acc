import PreludeClient
import PreludeCore

/// The seed flows, played as an app would play them through PermissionFlow (docs/client.md, "Permission flows").
enum Scenarios {
    /// Name, OS, locale, and the script; each returns the events it expects the server to store.
    static let all: [(name: String, os: String, locale: String, play: @Sendable (DemoApp) async throws -> Void)] = [
        ("camera-priming-accepted", "17.4", "fr", cameraPrimingAccepted),
        ("camera-priming-left-reshown", "17.4", "en", cameraPrimingLeftThenReshown),
        ("camera-denied-settings-back", "17.4", "zh-Hans", cameraDeniedSettingsAndBack),
        ("camera-unavailable", "17.4", "en", cameraUnavailable),
        ("photos-denied-page", "17.4", "en", photosDeniedPage),
        ("photos-unavailable", "17.4", "en", photosUnavailable),
        ("contacts-limited-ios18", "18.1", "ja", contactsLimitedIOS18),
        ("tracking-asked-once", "17.4", "en", trackingAskedOnce),
        ("location-button-ios15", "15.0", "en", locationButtonIOS15),
        ("camera-not-at-launch", "17.4", "en", cameraNotAtLaunch),
        ("photos-changed-in-settings", "17.4", "en", photosChangedInSettings),
        ("photos-picker-arm", "17.4", "fr", photosPickerArm),
    ]

    // Ask less (docs/catalogue.md): the picker arm of photos-ask-vs-picker presents PhotosPicker, never asks, and
    // records no permission event; after a refusal made elsewhere too.
    static func photosPickerArm(_ app: DemoApp) async throws {
        let picker = try await app.flow.screen(for: .photos)
        try app.expect(picker, .permissionless, .permissionlessStrategy)
        guard picker.path == .photosPicker, picker.variant?.variant == "picker" else {
            throw DemoFailure(description: "\(app.name): \(picker.path.map(\.rawValue) ?? "no path") \(picker)")
        }
        app.device.setStatus(.denied, for: .photos)
        try app.expect(try await app.flow.screen(for: .photos), .permissionless, .permissionlessStrategy)
        guard app.device.requests.isEmpty else { throw DemoFailure(description: "\(app.name): asked") }
        try await app.expectEvents([])
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
