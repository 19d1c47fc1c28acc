import Testing

@testable import PreludeCore

/// Issue 17: the lint's word lists for the App Store's other large locales — Portuguese, Italian, Korean, Russian,
/// Dutch, Turkish — each checked with clean copy (no findings) and with each kind of mistake in that language.
@Suite("Copy lint languages")
struct CopyLexiconLanguagesTests {
    /// Clean single-action camera copy, in the order of ``CopyLintTests/cleanCopy(_:)``.
    static let clean: [String: [String]] = [
        "pt-BR": [
            "Digitalizar recibos", "{appName} usa a câmera para digitalizar seus recibos.", "Continuar",
            "Câmera desativada", "Ative a câmera nos Ajustes para digitalizar recibos.", "Abrir Ajustes", "Cancelar",
            "Sem acesso à câmera", "Você ainda pode digitar seus recibos à mão.",
            "Câmera indisponível", "O acesso à câmera está restrito neste dispositivo.",
        ],
        "it": [
            "Scansiona le ricevute", "{appName} usa la fotocamera per scansionare le tue ricevute.", "Continua",
            "Fotocamera disattivata", "Attiva la fotocamera in Impostazioni per scansionare le ricevute.",
            "Apri Impostazioni", "Annulla",
            "Nessun accesso alla fotocamera", "Puoi comunque inserire le ricevute a mano.",
            "Fotocamera non disponibile", "L’accesso alla fotocamera è limitato su questo dispositivo.",
        ],
        "ko": [
            "영수증 스캔", "{appName}에서 영수증을 스캔하기 위해 카메라를 사용합니다.", "계속",
            "카메라 접근이 꺼져 있음", "영수증을 스캔하려면 설정에서 카메라 접근을 켜십시오.", "설정 열기", "취소",
            "카메라에 접근할 수 없음", "영수증을 직접 입력할 수도 있습니다.",
            "카메라를 사용할 수 없음", "이 기기에서는 카메라 접근이 제한되어 있습니다.",
        ],
        "ru": [
            "Сканирование чеков", "{appName} использует камеру, чтобы сканировать ваши чеки.", "Продолжить",
            "Доступ к камере выключен", "Включите доступ к камере в Настройках, чтобы сканировать чеки.",
            "Открыть Настройки", "Отменить",
            "Нет доступа к камере", "Вы можете ввести чеки вручную.",
            "Камера недоступна", "Доступ к камере на этом устройстве ограничен.",
        ],
        "nl": [
            "Bonnetjes scannen", "{appName} gebruikt de camera om je bonnetjes te scannen.", "Doorgaan",
            "Cameratoegang staat uit", "Zet cameratoegang aan in Instellingen om bonnetjes te scannen.",
            "Open Instellingen", "Annuleer",
            "Geen cameratoegang", "Je kunt je bonnetjes ook met de hand invoeren.",
            "Camera niet beschikbaar", "Cameratoegang is beperkt op dit apparaat.",
        ],
        "tr": [
            "Fişleri tara", "{appName}, fişlerinizi taramak için kamerayı kullanır.", "Devam",
            "Kamera erişimi kapalı", "Fişleri taramak için Ayarlar’da kamera erişimini açın.", "Ayarları Aç", "Vazgeç",
            "Kamera erişimi yok", "Fişlerinizi elle de girebilirsiniz.",
            "Kamera kullanılamıyor", "Bu aygıtta kamera erişimi kısıtlanmış.",
        ],
    ]

    static let locales = ["pt-BR", "it", "ko", "ru", "nl", "tr"]

    static func document(
        _ feature: Feature = .camera, locale: String, replacing: [CopyKey: String] = [:]
    ) -> PolicyDocument {
        let t = clean[locale]!
        var texts: [CopyKey: String] = [
            CopyKey(.prime, .title): t[0], CopyKey(.prime, .message): t[1], CopyKey(.prime, .continueLabel): t[2],
            CopyKey(.settings, .title): t[3], CopyKey(.settings, .message): t[4],
            CopyKey(.settings, .openLabel): t[5], CopyKey(.settings, .cancelLabel): t[6],
            CopyKey(.denied, .title): t[7], CopyKey(.denied, .message): t[8],
            CopyKey(.restricted, .title): t[9], CopyKey(.restricted, .message): t[10],
        ]
        texts.merge(replacing) { _, new in new }
        let tag = LocaleTag(locale)!
        return PolicyDocument(
            app: AppInfo(id: "lint", name: "Lint", defaultLocale: tag),
            features: [feature: FeaturePolicy(feature: feature, settings: FeatureOverride(copy: [tag: CopySet(texts)]))]
        )
    }

    static func rules(_ document: PolicyDocument, severity: LintSeverity = .error) -> Set<String> {
        Set(CopyLinter.lint(document).filter { $0.severity == severity }.map(\.ruleId))
    }

    @Test(arguments: locales)
    func cleanCopyGivesNoFindings(locale: String) {
        let findings = CopyLinter.lint(Self.document(locale: locale))
        #expect(findings.isEmpty, "\(findings)")
        #expect(CopyLinter.lint(Self.document(.tracking, locale: locale)).isEmpty)
    }

    @Test(arguments: [
        ("pt-BR", "pt", LintLanguage.portuguese), ("pt-PT", "pt", .portuguese), ("it-IT", "it", .italian),
        ("ko-KR", "ko", .korean), ("ru", "ru", .russian), ("nl-BE", "nl", .dutch), ("tr-TR", "tr", .turkish),
    ])
    func localeTagsChooseTheirWordLists(tag: String, code: String, language: LintLanguage) {
        #expect(LintLanguage(localeTag: tag) == language)
        #expect(language.rawValue == code)
    }

    // The system alert's own "Allow" (PA-2 error), the legacy "Not Now" as the only action (PA-3 error), and each
    // language's "Continue" (no finding).
    @Test(arguments: [
        ("pt-BR", "Permitir", "PA-2"), ("pt-BR", "Agora não", "PA-3"), ("pt-BR", "Continuar", nil),
        ("it", "Consenti", "PA-2"), ("it", "Non ora", "PA-3"), ("it", "Continua", nil),
        ("ko", "허용", "PA-2"), ("ko", "나중에", "PA-3"), ("ko", "계속", nil),
        ("ru", "Разрешить", "PA-2"), ("ru", "Не сейчас", "PA-3"), ("ru", "Продолжить", nil),
        ("nl", "Sta toe", "PA-2"), ("nl", "Niet nu", "PA-3"), ("nl", "Doorgaan", nil),
        ("tr", "İzin Ver", "PA-2"), ("tr", "Şimdi Değil", "PA-3"), ("tr", "Devam", nil),
    ])
    func continueLabels(locale: String, label: String, rule: String?) {
        let findings = CopyLinter.lint(
            Self.document(locale: locale, replacing: [CopyKey(.prime, .continueLabel): label]))
        #expect(findings.map(\.ruleId) == (rule.map { [$0] } ?? []), "\(findings)")
        #expect(findings.allSatisfy { $0.severity == .error })
    }

    @Test(arguments: [
        ("pt-BR", "Pedir ao App para Não Rastrear"), ("it", "Chiedi all’app di non tracciare"),
        ("ko", "앱에 추적 금지 요청"), ("ru", "Попросить приложение не отслеживать"),
        ("nl", "Vraag app om niet te volgen"), ("tr", "Uygulamadan İzleme Yapmamasını İste"),
    ])
    func systemAlertImitationIsPA4(locale: String, title: String) {
        #expect(
            Self.rules(Self.document(.tracking, locale: locale, replacing: [CopyKey(.prime, .title): title])).contains(
                "PA-4"))
    }

    @Test(arguments: [
        ("pt-BR", "Toque em Permitir para digitalizar seus recibos."),
        ("it", "Tocca Consenti per scansionare le tue ricevute."),
        ("ko", "다음 화면에서 '허용'을 탭하여 영수증을 스캔하세요."),
        ("ru", "Нажмите «Разрешить», чтобы сканировать чеки."),
        ("nl", "Tik op Sta toe om je bonnetjes te scannen."),
        ("tr", "Fişlerinizi taramak için “İzin Ver” düğmesine dokunun."),
    ])
    func pointingAtTheAllowButtonIsPA5(locale: String, message: String) {
        #expect(
            Self.rules(Self.document(locale: locale, replacing: [CopyKey(.prime, .message): message])).contains("PA-5"))
    }

    @Test(arguments: [
        ("pt-BR", "Compartilhe sua atividade para ganhar moedas grátis."),
        ("it", "Condividi la tua attività per ricevere un premio."),
        ("ko", "추적을 허용하면 포인트를 적립해 드립니다."),
        ("ru", "Разрешите отслеживание, чтобы получить бонус."),
        ("nl", "Deel je activiteit om gratis munten te verdienen."),
        ("tr", "Etkinliğinizi paylaşarak ücretsiz jeton kazanın."),
    ])
    func incentivesForTrackingArePA6Errors(locale: String, message: String) {
        #expect(
            Self.rules(Self.document(.tracking, locale: locale, replacing: [CopyKey(.prime, .message): message]))
                .contains("PA-6"))
    }

    @Test(arguments: [
        ("pt-BR", "O rastreamento é obrigatório para continuar usando o app."),
        ("it", "Il tracciamento è obbligatorio per continuare a usare l’app."),
        ("ko", "추적을 허용하지 않으면 앱을 사용할 수 없습니다."),
        ("ru", "Без отслеживания приложение не будет работать."),
        ("nl", "Zonder volgen werkt de app niet, want het is verplicht."),
        ("tr", "Uygulamayı kullanmaya devam etmek için izleme zorunludur."),
    ])
    func gatingForTrackingIsPA7Error(locale: String, message: String) {
        #expect(
            Self.rules(Self.document(.tracking, locale: locale, replacing: [CopyKey(.prime, .message): message]))
                .contains("PA-7"))
    }

    @Test(arguments: [
        ("pt-BR", "Você ainda pode digitar seus recibos à mão"), ("it", "Puoi comunque inserire le ricevute a mano"),
        ("ko", "영수증을 직접 입력할 수도 있습니다"), ("ru", "Вы можете ввести чеки вручную"),
        ("nl", "Je kunt je bonnetjes ook met de hand invoeren"), ("tr", "Fişlerinizi elle de girebilirsiniz"),
    ])
    func messageWithoutAFullStopIsPS1(locale: String, message: String) {
        let findings = CopyLinter.lint(Self.document(locale: locale, replacing: [CopyKey(.denied, .message): message]))
        #expect(findings.map(\.ruleId) == ["PS-1"])
    }

    @Test(arguments: [
        ("pt-BR", "Isso garante a melhor experiência para você."),
        ("it", "Serve per offrirti un’esperienza migliore."),
        ("ko", "더 나은 경험을 제공하기 위해 카메라를 사용합니다."),
        ("ru", "Это нужно, чтобы улучшить ваш опыт."),
        ("nl", "Zo krijg je een betere ervaring met de app."),
        ("tr", "Size daha iyi bir deneyim sunmak için kamerayı kullanırız."),
    ])
    func vaguePurposeIsPS5(locale: String, message: String) {
        #expect(
            Self.rules(Self.document(locale: locale, replacing: [CopyKey(.prime, .message): message])).contains("PS-5"))
    }

    @Test(arguments: [
        ("pt-BR", "Ative o acesso nos Ajustes."), ("it", "Attiva l’accesso in Impostazioni."),
        ("ko", "설정에서 카메라 접근을 켜십시오."), ("ru", "Включите доступ в Настройках."),
        ("nl", "Zet toegang aan in Instellingen."), ("tr", "Ayarlardan kamera erişimini açın."),
    ])
    func restrictedNoticePointingToSettingsIsDN2(locale: String, message: String) {
        #expect(
            Self.rules(Self.document(locale: locale, replacing: [CopyKey(.restricted, .message): message]))
                .contains("DN-2"))
    }
}
