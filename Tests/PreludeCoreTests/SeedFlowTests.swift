import Testing

@testable import PreludeCore

/// Each seed document's flow (shared/seeds), replayed through the real path: a policy document is validated,
/// resolved for the client (locale, OS, targeting), and decided by the engine over simulated time.
@Suite("Seed flows")
struct SeedFlowTests {
    static let start = Instant(secondsSinceEpoch: 1_800_000_000)
    static let hour = 3_600.0

    /// One document carrying what the five seeds describe, in their languages, English as the default locale.
    static let documentText = #"""
        {
          "schemaVersion": 1,
          "app": {"id": "seeds", "name": "Kamera", "defaultLocale": "en"},
          "defaults": {
            "cadence": {
              "prime": {"minIntervalHours": 24, "backoff": 2, "maxShows": 3},
              "settings": {"minIntervalHours": 72, "backoff": 2, "maxShows": 2}
            },
            "settings": {"delayMs": 200, "leaveScreenFirst": true}
          },
          "features": {
            "camera": {
              "strategy": "prime",
              "style": "twoButton",
              "copy": {
                "en": {
                  "prime": {"title": "Scan receipts with {appName}", "message": "{appName} uses the camera to scan your receipts.",
                            "continueLabel": "Allow", "cancelLabel": "Not Now"},
                  "settings": {"title": "Camera access is off", "message": "Turn on camera access in Settings to scan receipts.",
                               "openLabel": "Open Settings", "cancelLabel": "Cancel"},
                  "denied": {"title": "No camera access", "message": "You can still type your receipts in by hand."},
                  "restricted": {"title": "Camera unavailable", "message": "Camera access is restricted on this device."},
                  "unsupported": {"title": "No camera", "message": "This device has no camera."}
                },
                "fr": {
                  "prime": {"title": "Scanner vos reçus", "message": "{appName} utilise l’appareil photo pour scanner vos reçus.",
                            "continueLabel": "Autoriser", "cancelLabel": "Plus tard"},
                  "settings": {"title": "Accès à l’appareil photo désactivé",
                               "message": "Activez l’appareil photo dans Réglages pour scanner vos reçus.",
                               "openLabel": "Ouvrir Réglages", "cancelLabel": "Annuler"},
                  "unsupported": {"title": "Erreur", "message": "Cet appareil n’a pas d’appareil photo."}
                },
                "zh-Hans": {
                  "settings": {"title": "需要相机权限", "message": "请在设置中开启相机权限,以便扫描二维码。",
                               "openLabel": "去设置", "cancelLabel": "取消"},
                  "denied": {"title": "无法使用相机", "message": "您仍可以手动输入二维码内容。"}
                },
                "zh-Hant": {
                  "unsupported": {"title": "提示", "message": "當前設備不支持拍照。"}
                }
              }
            },
            "photos": {
              "strategy": "direct",
              "partial": {"limited": "limitedPicker"},
              "copy": {
                "en": {
                  "settings": {"title": "Photo access is off", "message": "Turn on photo access in Settings to attach pictures.",
                               "openLabel": "Open Settings", "cancelLabel": "Cancel"},
                  "denied": {"title": "No photo access", "message": "Allow photo access in Settings > Privacy to attach pictures."},
                  "restricted": {"title": "Photos unavailable", "message": "Photo access is restricted on this device."},
                  "unsupported": {"title": "No photo library", "message": "This device has no photo library."},
                  "upgrade": {"title": "Choose more photos", "message": "Add photos to the ones you shared to attach them.",
                              "continueLabel": "Continue", "cancelLabel": "Cancel"}
                },
                "zh-Hant": {
                  "denied": {"title": "無法存取相冊", "message": "拒絕訪問相冊,可去設置隱私裡開啟。"},
                  "unsupported": {"title": "提示", "message": "當前設備不支持相冊。"}
                }
              }
            },
            "contacts": {
              "strategy": "button",
              "style": "single",
              "partial": {"limited": "contactAccessButton"},
              "copy": {
                "en": {
                  "prime": {"title": "Find your friends", "message": "{appName} uses your contacts to find friends.",
                            "continueLabel": "Continue"},
                  "button": {"caption": "Share more contacts"},
                  "settings": {"title": "Contacts access is off", "message": "Turn on contacts in Settings to find friends.",
                               "openLabel": "Open Settings", "cancelLabel": "Cancel"},
                  "denied": {"title": "No contacts access", "message": "You can still invite friends by link."},
                  "restricted": {"title": "Contacts unavailable", "message": "Contacts access is restricted on this device."}
                },
                "ja": {
                  "prime": {"title": "友達を見つける", "message": "{appName}は友達を見つけるために連絡先を使用します。",
                            "continueLabel": "続ける"},
                  "button": {"caption": "連絡先を追加で共有"}
                }
              }
            },
            "locationWhenInUse": {
              "strategy": "button",
              "style": "single",
              "copy": {
                "en": {
                  "prime": {"title": "Find stores near you", "message": "{appName} uses your location to show nearby stores.",
                            "continueLabel": "Continue"},
                  "button": {"caption": "Current Location"},
                  "settings": {"title": "Location is off", "message": "Turn on location in Settings to see nearby stores.",
                               "openLabel": "Open Settings", "cancelLabel": "Cancel"},
                  "denied": {"title": "No location access", "message": "You can still search stores by city."},
                  "restricted": {"title": "Location unavailable", "message": "Location access is restricted on this device."}
                },
                "ja": {
                  "prime": {"title": "近くの店舗を探す", "message": "{appName}は近くの店舗を表示するために位置情報を使用します。",
                            "continueLabel": "続ける"},
                  "button": {"caption": "現在地"}
                }
              }
            }
          }
        }
        """#

    static func makeDocument() throws -> PolicyDocument {
        let validation = PolicyValidator.validate(text: documentText)
        return try #require(validation.document, "\(validation.problems)")
    }

    static func decide(
        _ feature: Feature, _ status: AuthorizationStatus, locale: String, os: String = "18.0", available: Bool = true,
        history: [CadenceKind: ScreenHistory] = [:], now: Instant = start
    ) throws -> Decision {
        let osVersion = SemanticVersion(os)
        let context = ClientContext(platform: .ios, osVersion: osVersion, locale: locale, installId: "install-1")
        let policy = try #require(PolicyResolver.resolve(feature, in: try makeDocument(), context: context))
        let state = ClientState(
            feature: feature, status: status, available: available, osVersion: osVersion,
            history: history)
        return try DecisionEngine.decide(policy: policy, state: state, now: now)
    }

    // MARK: permission-priming-camera.fr — priming alert, Allow / Not Now, analytics at each step

    @Test func frenchCameraPrimingWithAllowAndNotNow() throws {
        let decision = try Self.decide(.camera, .notDetermined, locale: "fr-FR")
        #expect(decision.action == .prime)
        #expect(decision.style == .twoButton)
        #expect(decision.copy[.title] == "Scanner vos reçus")
        #expect(decision.copy[.message] == "Kamera utilise l’appareil photo pour scanner vos reçus.")
        #expect(decision.copy[.continueLabel] == "Autoriser")
        #expect(decision.copy[.cancelLabel] == "Plus tard")
        // primeAccepted on "Autoriser", primeDismissed (the seed's primeCancelled) on "Plus tard".
        #expect(decision.events.onShow == .primeShown)
        #expect(decision.events.onContinue == .primeAccepted)
        #expect(decision.events.onDismiss == .primeDismissed)
        #expect(decision.events.onGranted == .systemGranted)
        #expect(decision.events.onDenied == .systemDenied)
    }

    @Test func frenchCameraNotNowAsksAgainLaterThenAllowLeadsToTheSystemPrompt() throws {
        let notNow = ScreenHistory(shownCount: 1, lastShown: Self.start, lastOutcome: .dismissed)
        let soon = try Self.decide(
            .camera, .notDetermined, locale: "fr", history: [.prime: notNow],
            now: Self.start.adding(seconds: Self.hour))
        #expect(soon.action == .wait)
        #expect(soon.eligibleAt == Self.start.adding(seconds: 24 * Self.hour))
        let nextDay = try Self.decide(
            .camera, .notDetermined, locale: "fr", history: [.prime: notNow],
            now: Self.start.adding(seconds: 24 * Self.hour))
        #expect(nextDay.action == .prime)
        let allowed = ScreenHistory(
            shownCount: 2, lastShown: Self.start.adding(seconds: 24 * Self.hour),
            lastOutcome: .continued)
        let afterAllow = try Self.decide(
            .camera, .notDetermined, locale: "fr", history: [.prime: allowed],
            now: Self.start.adding(seconds: 24 * Self.hour + 1))
        #expect(afterAllow.action == .systemPrompt)
    }

    @Test func frenchCameraByStatus() throws {
        #expect(try Self.decide(.camera, .authorized, locale: "fr").action == .proceed)
        let denied = try Self.decide(.camera, .denied, locale: "fr")
        #expect(denied.action == .openSettings)
        #expect(denied.copy[.openLabel] == "Ouvrir Réglages")
        #expect(denied.events.onContinue == .settingsOpened)
        let noCamera = try Self.decide(.camera, .notDetermined, locale: "fr", available: false)
        #expect(noCamera.action == .unsupported)
        #expect(noCamera.copy[.message] == "Cet appareil n’a pas d’appareil photo.")
        #expect(noCamera.events.onShow == .unsupportedShown)
    }

    // MARK: camera-authorization-flow.zh-Hans — denied: leave the screen, guidance dialog, Settings after 0.2 s

    @Test func simplifiedChineseCameraDeniedOpensSettingsAfter200msLeavingTheScreenFirst() throws {
        let decision = try Self.decide(.camera, .denied, locale: "zh-CN")
        #expect(decision.action == .openSettings)
        #expect(decision.settingsDelayMs == 200)
        #expect(decision.leaveScreenFirst == true)
        #expect(decision.copy[.title] == "需要相机权限")
        #expect(decision.copy[.openLabel] == "去设置")
        #expect(decision.countsAgainst == .settings)
        #expect(decision.events.onGranted == .returnedGranted)
    }

    @Test func simplifiedChineseCameraAfterTheNudgeShowsTheDeniedStateNotABlackScreen() throws {
        let nudged = ScreenHistory(shownCount: 1, lastShown: Self.start, lastOutcome: .dismissed)
        let decision = try Self.decide(
            .camera, .denied, locale: "zh-Hans", history: [.settings: nudged],
            now: Self.start.adding(seconds: Self.hour))
        #expect(decision.action == .deniedScreen)
        #expect(decision.copy[.message] == "您仍可以手动输入二维码内容。")
        #expect(decision.eligibleAt == Self.start.adding(seconds: 72 * Self.hour))
    }

    @Test func simplifiedChineseCameraReturningFromSettingsGrantedProceedsWithoutRelaunch() throws {
        let nudged = ScreenHistory(shownCount: 1, lastShown: Self.start, lastOutcome: .continued)
        let decision = try Self.decide(.camera, .authorized, locale: "zh-Hans", history: [.settings: nudged])
        #expect(decision.action == .proceed)
    }

    // MARK: contact-access-button-ios18.ja — ContactAccessButton while notDetermined and limited

    @Test func japaneseContactAccessButtonOnIOS18WhileNotDetermined() throws {
        let decision = try Self.decide(.contacts, .notDetermined, locale: "ja-JP", os: "18.0")
        #expect(decision.action == .contactAccessButton)
        #expect(decision.copy == [.caption: "連絡先を追加で共有"])
    }

    @Test func japaneseContactAccessButtonOnIOS18WhileLimited() throws {
        let decision = try Self.decide(.contacts, .limited, locale: "ja", os: "18.1")
        #expect(decision.action == .contactAccessButton)
        #expect(decision.reason == .partialButton)
        #expect(decision.copy == [.caption: "連絡先を追加で共有"])
    }

    @Test func japaneseContactsBeforeIOS18FallBackToSingleActionPriming() throws {
        let decision = try Self.decide(.contacts, .notDetermined, locale: "ja", os: "17.5")
        #expect(decision.action == .prime)
        #expect(decision.copy[.continueLabel] == "続ける")
    }

    // MARK: hig-accessing-user-data.ja — single-action priming; Location Button from iOS 15

    @Test func japaneseHIGSingleActionPrimingHasOneContinueAction() throws {
        let decision = try Self.decide(.locationWhenInUse, .notDetermined, locale: "ja", os: "14.8")
        #expect(decision.action == .prime)
        #expect(decision.style == .single)
        #expect(decision.copy[.continueLabel] == "続ける")
        #expect(decision.copy[.cancelLabel] == nil)
        #expect(decision.copy[.message] == "Kameraは近くの店舗を表示するために位置情報を使用します。")
    }

    @Test func japaneseLocationButtonOnIOS15() throws {
        let decision = try Self.decide(.locationWhenInUse, .notDetermined, locale: "ja", os: "15.0")
        #expect(decision.action == .locationButton)
        #expect(decision.copy == [.caption: "現在地"])
        #expect(decision.events.onShow == .buttonShown)
    }

    // MARK: camera-photos-authorization.zh-Hant — ask first, denied page, no source

    @Test func traditionalChinesePhotosAskFirstWithTheSystemPrompt() throws {
        let decision = try Self.decide(.photos, .notDetermined, locale: "zh-TW")
        #expect(decision.action == .systemPrompt)
    }

    @Test func traditionalChinesePhotosDeniedShowsTheExplanatoryPage() throws {
        let nudged = ScreenHistory(shownCount: 2, lastShown: Self.start)
        let decision = try Self.decide(.photos, .denied, locale: "zh-Hant-TW", history: [.settings: nudged])
        #expect(decision.action == .deniedScreen)
        #expect(decision.copy == [.title: "無法存取相冊", .message: "拒絕訪問相冊,可去設置隱私裡開啟。"])
        #expect(decision.events.onShow == .deniedShown)
    }

    @Test func traditionalChineseNoPhotoSourceIsUnsupported() throws {
        let decision = try Self.decide(.photos, .notDetermined, locale: "zh-HK", available: false)
        #expect(decision.action == .unsupported)
        #expect(decision.copy[.message] == "當前設備不支持相冊。")
    }

    @Test func traditionalChineseNoCameraIsUnsupported() throws {
        let decision = try Self.decide(.camera, .notDetermined, locale: "zh-Hant", available: false)
        #expect(decision.copy[.message] == "當前設備不支持拍照。")
    }

    @Test func traditionalChinesePhotosRestrictedNeverOffersSettings() throws {
        let decision = try Self.decide(.photos, .restricted, locale: "zh-Hant")
        #expect(decision.action == .restrictedNotice)
        #expect(decision.copy[.openLabel] == nil)
    }

    // MARK: The whole app's policy, as the decide endpoint uses it

    @Test func decidingWithinTheResolvedPolicyPicksTheFeature() throws {
        let context = ClientContext(platform: .ios, osVersion: SemanticVersion("18.0"), locale: "ja")
        let resolved = PolicyResolver.resolve(try Self.makeDocument(), context: context)
        let decision = try DecisionEngine.decide(
            in: resolved, state: ClientState(feature: .contacts, status: .limited), now: Self.start)
        #expect(decision.action == .contactAccessButton)
        #expect(throws: DecisionError.featureNotConfigured(.tracking)) {
            try DecisionEngine.decide(
                in: resolved, state: ClientState(feature: .tracking, status: .notDetermined), now: Self.start)
        }
    }
}
