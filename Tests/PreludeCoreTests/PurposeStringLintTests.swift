import Testing

@testable import PreludeCore

@Suite("Purpose string lint")
struct PurposeStringLintTests {
    static func rules(_ strings: [String: String], _ locale: String) -> Set<String> {
        Set(PurposeStringLinter.lint(strings: strings, locale: locale).map(\.ruleId))
    }

    @Test(arguments: [
        ("en", "We use the camera to scan receipts and attach them to your expenses."),
        ("fr", "Nous utilisons l’appareil photo pour scanner vos reçus et les joindre à vos notes de frais."),
        ("ja", "レシートを読み取って経費に添付するためにカメラを使用します。"),
        ("zh-Hans", "我们使用相机扫描收据,以便将其附加到您的报销单。"),
        ("zh-Hant", "我們使用相機掃描收據,以便將其附加到您的報銷單。"),
        ("de", "Wir nutzen die Kamera, um Belege zu scannen und deinen Ausgaben hinzuzufügen."),
        ("es", "Usamos la cámara para escanear tus recibos y adjuntarlos a tus gastos."),
    ])
    func cleanPurposeStringsGiveNoFindings(locale: String, text: String) {
        let findings = PurposeStringLinter.lint(strings: ["NSCameraUsageDescription": text], locale: locale)
        #expect(findings.isEmpty, "\(findings)")
    }

    @Test(arguments: [
        ("en", "We use the camera to scan receipts"),
        ("fr", "Nous utilisons l’appareil photo pour scanner vos reçus"),
        ("ja", "レシートを読み取るためにカメラを使用します"),
        ("zh-Hans", "我们使用相机扫描收据,以便报销"),
        ("zh-Hant", "我們使用相機掃描收據,以便報銷."),
    ])
    func missingFullStopIsPS1(locale: String, text: String) {
        let findings = PurposeStringLinter.lint(strings: ["NSCameraUsageDescription": text], locale: locale)
        #expect(findings.map(\.ruleId) == ["PS-1"])
        #expect(findings.first?.severity == .error)
        #expect(findings.first?.pointer.description == "/NSCameraUsageDescription")
    }

    @Test func emptyStringIsPS1() {
        #expect(Self.rules(["NSCameraUsageDescription": "  "], "en") == ["PS-1"])
    }

    @Test func trailingEllipsisIsPS1() {
        #expect(Self.rules(["NSCameraUsageDescription": "We use the camera to scan receipts…"], "en") == ["PS-1"])
    }

    @Test func unknownKeyIsPS8() {
        let findings = PurposeStringLinter.lint(
            strings: ["NSCameraUsageDescriptions": "We use the camera to scan receipts."], locale: "en")
        #expect(findings.map(\.ruleId) == ["PS-8"])
    }

    @Test func lowercaseStartIsPS2() {
        #expect(Self.rules(["NSCameraUsageDescription": "we use the camera to scan receipts."], "en") == ["PS-2"])
    }

    @Test func titleCaseIsPS2() {
        #expect(Self.rules(["NSCameraUsageDescription": "We Use The Camera To Scan Receipts."], "en") == ["PS-2"])
    }

    @Test(arguments: [
        ("en", "Your location is used to show nearby stores."),
        ("fr", "Votre position est utilisée pour afficher les magasins proches."),
        ("zh-Hans", "您的位置会被用来显示附近的商店。"),
    ])
    func passiveVoiceIsPS3(locale: String, text: String) {
        #expect(Self.rules(["NSLocationWhenInUseUsageDescription": text], locale) == ["PS-3"])
    }

    @Test(arguments: [
        ("en", "Turn on microphone access."),
        ("fr", "Veuillez autoriser l’accès au micro pour enregistrer des notes vocales."),
        ("ja", "マイクへのアクセスを許可してください。"),
        ("zh-Hans", "请允许访问麦克风以录制语音备忘录。"),
        ("zh-Hant", "請允許存取麥克風以錄製語音備忘錄。"),
    ])
    func bareImperativeIsPS4(locale: String, text: String) {
        #expect(Self.rules(["NSMicrophoneUsageDescription": text], locale).contains("PS-4"))
    }

    @Test(arguments: [
        ("en", "Your data will help us provide a better experience."),
        ("en", "This app needs access to your camera."),
        ("fr", "Nous utilisons vos données pour vous offrir une meilleure expérience."),
        ("ja", "より良い体験を提供するためにカメラを使用します。"),
        ("zh-Hans", "我们使用相机为您提供更好的体验。"),
        ("zh-Hant", "我們使用相機為您提供更好的體驗。"),
    ])
    func vagueIsPS5(locale: String, text: String) {
        #expect(Self.rules(["NSCameraUsageDescription": text], locale).contains("PS-5"))
    }

    @Test(arguments: [
        ("en", "To use location."),
        ("fr", "Pour utiliser la position."),
        ("ja", "位置情報を使用します。"),
        ("zh-Hans", "使用位置。"),
        ("zh-Hant", "使用位置。"),
    ])
    func restatingTheResourceIsPS6(locale: String, text: String) {
        #expect(Self.rules(["NSLocationWhenInUseUsageDescription": text], locale).contains("PS-6"))
    }

    @Test func noPurposeClauseIsPS7Info() {
        let findings = PurposeStringLinter.lint(
            strings: ["NSCameraUsageDescription": "We use the camera in the receipts tab."], locale: "en")
        #expect(findings.map(\.ruleId) == ["PS-7"])
        #expect(findings.first?.severity == .info)
    }

    @Test(arguments: [
        ("en", "We use the best camera features to scan receipts."),
        ("en", "We use the camera to scan receipts!"),
        ("ja", "最高のスキャン体験のためにカメラを使用します。"),
    ])
    func marketingIsPS9(locale: String, text: String) {
        #expect(Self.rules(["NSCameraUsageDescription": text], locale).contains("PS-9"))
    }

    @Test func longTextIsPS10() {
        let text = "We use the camera to scan receipts" + String(repeating: " and more details", count: 12) + "."
        #expect(Self.rules(["NSCameraUsageDescription": text], "en") == ["PS-10"])
    }

    @Test func missingLocaleIsPS8WithLocalePointer() {
        let findings = PurposeStringLinter.lint(stringsByLocale: [
            "en": [
                "NSCameraUsageDescription": "We use the camera to scan receipts.",
                "NSMicrophoneUsageDescription": "We use the microphone to record voice notes.",
            ],
            "ja": ["NSCameraUsageDescription": "レシートを読み取るためにカメラを使用します。"],
        ])
        #expect(
            findings == [
                LintFinding(
                    ruleId: "PS-8", severity: .error,
                    pointer: JSONPointer(tokens: ["ja", "NSMicrophoneUsageDescription"]),
                    message:
                        "NSMicrophoneUsageDescription is missing for ja; every supported language needs each purpose string."
                )
            ])
    }
}
