import Testing

@testable import PreludeCore

@Suite("Copy lint")
struct CopyLintTests {
    /// Clean single-action copy for one feature in one locale.
    static func cleanCopy(_ locale: String) -> [CopyKey: String] {
        let texts: [String: [String]] = [
            "en": [
                "Scan receipts", "{appName} uses the camera to scan your receipts.", "Continue",
                "Camera access is off", "Turn on camera access in Settings to scan receipts.", "Open Settings",
                "Cancel",
                "No camera access", "You can still type your receipts in by hand.",
                "Camera unavailable", "Camera access is restricted on this device.",
            ],
            "fr": [
                "Scanner vos reçus", "{appName} utilise l’appareil photo pour scanner vos reçus.", "Continuer",
                "Appareil photo désactivé", "Activez l’appareil photo dans Réglages pour scanner vos reçus.",
                "Ouvrir Réglages", "Annuler",
                "Pas d’accès à l’appareil photo", "Vous pouvez toujours saisir vos reçus à la main.",
                "Appareil photo indisponible", "L’accès à l’appareil photo est limité sur cet appareil.",
            ],
            "ja": [
                "レシートを読み取る", "{appName}はレシートを読み取るためにカメラを使用します。", "続ける",
                "カメラがオフです", "レシートを読み取るには設定でカメラをオンにしてください。", "設定を開く", "キャンセル",
                "カメラにアクセスできません", "レシートは手入力することもできます。",
                "カメラは使用できません", "このデバイスではカメラへのアクセスが制限されています。",
            ],
            "zh-Hans": [
                "扫描收据", "{appName}使用相机扫描您的收据,以便自动记账。", "继续",
                "相机权限已关闭", "请在设置中开启相机权限,以便扫描收据。", "去设置", "取消",
                "无法访问相机", "您仍可以手动输入收据。",
                "相机不可用", "此设备上的相机访问受到限制。",
            ],
            "zh-Hant": [
                "掃描收據", "{appName}使用相機掃描您的收據,以便自動記帳。", "繼續",
                "相機權限已關閉", "請在設置中開啟相機權限,以便掃描收據。", "前往設置", "取消",
                "無法存取相機", "您仍可以手動輸入收據。",
                "相機不可用", "此裝置上的相機存取受到限制。",
            ],
        ]
        let t = texts[locale]!
        return [
            CopyKey(.prime, .title): t[0], CopyKey(.prime, .message): t[1], CopyKey(.prime, .continueLabel): t[2],
            CopyKey(.settings, .title): t[3], CopyKey(.settings, .message): t[4],
            CopyKey(.settings, .openLabel): t[5], CopyKey(.settings, .cancelLabel): t[6],
            CopyKey(.denied, .title): t[7], CopyKey(.denied, .message): t[8],
            CopyKey(.restricted, .title): t[9], CopyKey(.restricted, .message): t[10],
        ]
    }

    static let languages = ["en", "fr", "ja", "zh-Hans", "zh-Hant"]

    static func makeDocument(
        _ feature: Feature = .camera, locale: String = "en", style: PrimingStyle? = nil,
        replacing: [CopyKey: String] = [:], removing: [CopyKey] = [], cadence: [CadenceKind: CadenceRuleOverride] = [:]
    ) -> PolicyDocument {
        var texts = cleanCopy(locale).merging(replacing) { _, new in new }
        for key in removing { texts[key] = nil }
        let tag = LocaleTag(locale)!
        let settings = FeatureOverride(style: style, cadence: cadence, copy: [tag: CopySet(texts)])
        return PolicyDocument(
            app: AppInfo(id: "lint", name: "Lint", defaultLocale: tag),
            features: [feature: FeaturePolicy(feature: feature, settings: settings)])
    }

    static func pointer(_ feature: Feature, _ locale: String, _ screen: CopyScreen, _ field: CopyField) -> JSONPointer {
        JSONPointer(tokens: ["features", feature.rawValue, "copy", locale, screen.rawValue, field.rawValue])
    }

    // MARK: Clean copy

    @Test(arguments: languages)
    func cleanCopyGivesNoFindings(locale: String) {
        let findings = CopyLinter.lint(Self.makeDocument(locale: locale))
        #expect(findings.isEmpty, "\(findings)")
    }

    @Test(arguments: languages)
    func cleanTrackingCopyGivesNoFindings(locale: String) {
        let findings = CopyLinter.lint(Self.makeDocument(.tracking, locale: locale))
        #expect(findings.isEmpty, "\(findings)")
    }

    // MARK: PA-2 — never "Allow"

    @Test(arguments: [
        ("en", "Allow"), ("fr", "Autoriser"), ("ja", "許可"), ("zh-Hans", "允许"), ("zh-Hant", "允許"),
        ("en", "OK"), ("fr", "Accepter"),
    ])
    func allowLikeContinueLabelIsPA2Error(locale: String, label: String) {
        let findings = CopyLinter.lint(
            Self.makeDocument(locale: locale, replacing: [CopyKey(.prime, .continueLabel): label]))
        #expect(
            findings == [
                LintFinding(
                    ruleId: "PA-2", severity: .error,
                    pointer: Self.pointer(.camera, locale, .prime, .continueLabel),
                    message: findings.first?.message ?? "")
            ])
    }

    @Test func unknownContinueLabelIsPA2Warning() {
        let findings = CopyLinter.lint(Self.makeDocument(replacing: [CopyKey(.prime, .continueLabel): "Let's go"]))
        #expect(findings.map(\.ruleId) == ["PA-2"])
        #expect(findings.first?.severity == .warning)
    }

    // MARK: PA-3 / PA-1 / TR-1 — the legacy two-button style

    @Test(arguments: [("en", "Not Now"), ("fr", "Plus tard"), ("ja", "後で"), ("zh-Hans", "以后再说"), ("zh-Hant", "以後再說")])
    func dismissLabelAsTheOnlyActionIsPA3Error(locale: String, label: String) {
        let findings = CopyLinter.lint(
            Self.makeDocument(locale: locale, replacing: [CopyKey(.prime, .continueLabel): label]))
        #expect(findings.map(\.ruleId) == ["PA-3"])
        #expect(findings.first?.severity == .error)
    }

    @Test(arguments: [("en", "Not Now"), ("fr", "Plus tard"), ("ja", "後で"), ("zh-Hans", "以后再说"), ("zh-Hant", "以後再說")])
    func twoButtonStyleIsPA1AndPA3WarningsOutsideTracking(locale: String, label: String) {
        let document = Self.makeDocument(
            locale: locale, style: .twoButton, replacing: [CopyKey(.prime, .cancelLabel): label])
        let findings = CopyLinter.lint(document)
        #expect(Set(findings.map(\.ruleId)) == ["PA-1", "PA-3"])
        #expect(findings.allSatisfy { $0.severity == .warning })
        #expect(findings.contains { $0.pointer == JSONPointer(tokens: ["features", "camera", "style"]) })
    }

    @Test(arguments: languages)
    func twoButtonStyleForTrackingIsTR1Error(locale: String) {
        let findings = CopyLinter.lint(
            Self.makeDocument(
                .tracking, locale: locale, style: .twoButton,
                replacing: [CopyKey(.prime, .cancelLabel): "Not Now"]))
        #expect(
            findings.contains(
                LintFinding(
                    ruleId: "TR-1", severity: .error,
                    pointer: JSONPointer(tokens: ["features", "tracking", "style"]),
                    message: findings.first { $0.ruleId == "TR-1" }?.message ?? "")))
        #expect(findings.filter { $0.ruleId == "PA-3" }.allSatisfy { $0.severity == .error })
    }

    // MARK: PA-4 / PA-5 — no imitation of the system alert

    @Test(arguments: [
        ("en", CopyField.title, "Lint Would Like to Access the Camera"),
        ("en", .continueLabel, "Allow Tracking"),
        ("en", .continueLabel, "Ask App Not to Track"),
        ("fr", .title, "Lint souhaite accéder à l’appareil photo"),
        ("ja", .title, "トラッキングを許可"),
        ("zh-Hans", .title, "允许跟踪"),
        ("zh-Hant", .title, "允許追蹤"),
    ])
    func systemAlertImitationIsPA4Error(locale: String, field: CopyField, text: String) {
        let findings = CopyLinter.lint(
            Self.makeDocument(.tracking, locale: locale, replacing: [CopyKey(.prime, field): text]))
        let pa4 = findings.filter { $0.ruleId == "PA-4" }
        #expect(pa4.map(\.pointer) == [Self.pointer(.tracking, locale, .prime, field)])
        #expect(pa4.allSatisfy { $0.severity == .error })
    }

    @Test(arguments: [
        ("en", "Tap Allow on the next screen so we can scan receipts."),
        ("fr", "Appuyez sur « Autoriser » pour scanner vos reçus."),
        ("ja", "次の画面で「許可」をタップしてレシートを読み取ります。"),
        ("zh-Hans", "请在下一步点击允许以便扫描收据。"),
        ("zh-Hant", "請在下一步點擊允許以便掃描收據。"),
        ("en", "We scan receipts for you 👇."),
    ])
    func pointingAtTheAllowButtonIsPA5Error(locale: String, message: String) {
        let findings = CopyLinter.lint(
            Self.makeDocument(locale: locale, replacing: [CopyKey(.prime, .message): message]))
        #expect(findings.contains { $0.ruleId == "PA-5" && $0.severity == .error })
    }

    // MARK: PA-6 — no incentives (error for tracking, warning otherwise)

    @Test(arguments: [
        ("en", "Allow tracking and get 100 free coins."), ("en", "Earn a bonus when you share activity."),
        ("fr", "Partagez votre activité et recevez une récompense."),
        ("ja", "トラッキングでポイントがもらえます。"),
        ("zh-Hans", "开启跟踪即可领取金币奖励。"),
        ("zh-Hant", "開啟追蹤即可領取金幣獎勵。"),
    ])
    func incentivesForTrackingArePA6Errors(locale: String, message: String) {
        let findings = CopyLinter.lint(
            Self.makeDocument(.tracking, locale: locale, replacing: [CopyKey(.prime, .message): message]))
        #expect(
            findings.contains {
                $0.ruleId == "PA-6" && $0.severity == .error
                    && $0.pointer == Self.pointer(.tracking, locale, .prime, .message)
            })
    }

    @Test func incentivesOutsideTrackingArePA6Warnings() {
        let findings = CopyLinter.lint(
            Self.makeDocument(replacing: [CopyKey(.prime, .message): "Scan receipts to earn points."]))
        #expect(findings.filter { $0.ruleId == "PA-6" }.map(\.severity) == [.warning])
    }

    // MARK: PA-7 — no gating

    @Test(arguments: [
        ("en", "Tracking is required to continue using the app."),
        ("fr", "Le suivi est obligatoire pour continuer à utiliser l’app."),
        ("ja", "許可しないとアプリを利用できません。"),
        ("zh-Hans", "必须允许跟踪,否则无法使用本应用。"),
        ("zh-Hant", "必須允許追蹤,否則無法使用本應用。"),
    ])
    func gatingForTrackingIsPA7Error(locale: String, message: String) {
        let findings = CopyLinter.lint(
            Self.makeDocument(.tracking, locale: locale, replacing: [CopyKey(.prime, .message): message]))
        #expect(findings.contains { $0.ruleId == "PA-7" && $0.severity == .error })
    }

    // MARK: PS-1 — complete sentences with the locale's full stop

    @Test(arguments: [
        ("en", CopyScreen.denied, "You can still type your receipts in by hand"),
        ("fr", .denied, "Vous pouvez toujours saisir vos reçus à la main"),
        ("ja", .denied, "レシートは手入力することもできます."),
        ("zh-Hans", .restricted, "此设备上的相机访问受到限制"),
        ("zh-Hant", .prime, "{appName}使用相機掃描您的收據,以便自動記帳…"),
    ])
    func messageWithoutTheLocalesFullStopIsPS1Error(locale: String, screen: CopyScreen, message: String) {
        let findings = CopyLinter.lint(
            Self.makeDocument(locale: locale, replacing: [CopyKey(screen, .message): message]))
        #expect(findings.map(\.ruleId) == ["PS-1"])
        #expect(findings.first?.pointer == Self.pointer(.camera, locale, screen, .message))
    }

    @Test func titleCasedMessageIsPS2() {
        let findings = CopyLinter.lint(
            Self.makeDocument(replacing: [CopyKey(.denied, .message): "You Can Still Type Receipts In."]))
        #expect(findings.map(\.ruleId) == ["PS-2"])
    }

    @Test func vaguePrimingMessageIsPS5() {
        let findings = CopyLinter.lint(
            Self.makeDocument(
                replacing: [CopyKey(.prime, .message): "We use the camera to give you a better experience."]))
        #expect(findings.map(\.ruleId) == ["PS-5"])
    }

    // MARK: DN-1 / DN-2

    @Test func settingsNudgeWithoutCancelIsDN1() {
        let findings = CopyLinter.lint(Self.makeDocument(removing: [CopyKey(.settings, .cancelLabel)]))
        #expect(findings.map(\.ruleId) == ["DN-1"])
        #expect(findings.first?.severity == .warning)
    }

    @Test(arguments: [
        ("en", "Camera access is restricted; turn it on in Settings."),
        ("fr", "L’accès est limité ; activez-le dans Réglages."),
        ("ja", "カメラへのアクセスは制限されています。設定でオンにしてください。"),
        ("zh-Hans", "相机访问受到限制,请在设置中开启。"),
        ("zh-Hant", "相機存取受到限制,請在設置中開啟。"),
    ])
    func restrictedNoticePointingToSettingsIsDN2Error(locale: String, message: String) {
        let findings = CopyLinter.lint(
            Self.makeDocument(locale: locale, replacing: [CopyKey(.restricted, .message): message]))
        #expect(
            findings.contains {
                $0.ruleId == "DN-2" && $0.severity == .error
                    && $0.pointer == Self.pointer(.camera, locale, .restricted, .message)
            })
    }

    // MARK: TR-2 / PA-10

    @Test func cadenceOnTrackingIsTR2Error() {
        let document = Self.makeDocument(.tracking, cadence: [.settings: CadenceRuleOverride(maxShows: 3)])
        let findings = CopyLinter.lint(document)
        #expect(findings.map(\.ruleId) == ["TR-2"])
        #expect(findings.first?.pointer == JSONPointer(tokens: ["features", "tracking", "cadence", "settings"]))
    }

    @Test func cadenceElsewhereIsFine() {
        let document = Self.makeDocument(.camera, cadence: [.settings: CadenceRuleOverride(maxShows: 3)])
        #expect(CopyLinter.lint(document).isEmpty)
    }

    @Test func primedLocationSuggestsTheLocationButton() {
        let findings = CopyLinter.lint(Self.makeDocument(.locationWhenInUse))
        // LS-1 too: the fixture has no servicesOff texts (Location Services off device-wide).
        #expect(findings.map(\.ruleId) == ["PA-10", "LS-1"])
        #expect(findings.first?.severity == .info)
    }

    // MARK: Layers

    @Test func findingsInVariantsPointIntoTheExperiment() {
        var document = Self.makeDocument()
        let override = FeatureOverride(copy: [LocaleTag("fr")!: CopySet([CopyKey(.prime, .continueLabel): "Autoriser"])]
        )
        document.experiments = [
            Experiment(
                key: "label", feature: .camera,
                variants: [
                    Variant(name: "control", weight: 50), Variant(name: "allow", weight: 50, set: override),
                ])
        ]
        let findings = CopyLinter.lint(document)
        #expect(
            findings.map(\.pointer) == [
                JSONPointer(tokens: [
                    "experiments", "0", "variants", "1", "set", "copy", "fr", "prime", "continueLabel",
                ])
            ])
    }

    // MARK: The demo policy

    @Test func demoPolicyHasNoLintErrors() throws {
        let findings = CopyLinter.lint(try PolicyFixtures.demo())
        #expect(findings.filter { $0.severity == .error }.isEmpty, "\(findings)")
    }

    @Test func demoPolicyWithAnAllowLabelFailsLint() throws {
        var document = try PolicyFixtures.demo()
        let french = LocaleTag("fr")!
        document.features[.camera]?.settings.copy[french]?[.prime, .continueLabel] = "Autoriser"
        let errors = CopyLinter.lint(document).filter { $0.severity == .error }
        #expect(errors.map(\.pointer.description) == ["/features/camera/copy/fr/prime/continueLabel"])
    }

    // MARK: German and Spanish labels, language selection

    @Test(arguments: [
        ("de", "Erlauben", "PA-2"), ("de", "Später", "PA-3"), ("de", "Weiter", nil),
        ("es", "Permitir", "PA-2"), ("es", "Ahora no", "PA-3"), ("es", "Continuar", nil),
    ])
    func germanAndSpanishContinueLabels(locale: String, label: String, rule: String?) {
        let findings = TextChecker(localeTag: locale).checkContinueLabel(label, pointer: .root, severity: nil)
        #expect(findings.map(\.ruleId) == (rule.map { [$0] } ?? []))
    }

    @Test(arguments: [
        ("zh-TW", LintLanguage.traditionalChinese), ("zh-HK", .traditionalChinese),
        ("zh-Hant-HK", .traditionalChinese), ("zh-CN", .simplifiedChinese), ("zh", .simplifiedChinese),
        ("zh-Hans-TW", .simplifiedChinese), ("ja-JP", .japanese), ("fr-CA", .french), ("en_GB", .english),
    ])
    func localeTagsChooseTheirWordLists(tag: String, language: LintLanguage) {
        #expect(LintLanguage(localeTag: tag) == language)
    }

    @Test func unknownLanguageStillGetsTheEnglishLists() {
        let findings = TextChecker(localeTag: "ar").checkContinueLabel("Allow", pointer: .root, severity: nil)
        #expect(findings.map(\.ruleId) == ["PA-2"])
    }
}
