import Testing

@testable import PreludeCore

@Suite struct PolicyResolverTests {
    static func make(
        platform: Platform? = .ios, os: String? = "17.4", app: String? = "2.3.0", locale: String? = nil,
        acceptLanguage: String? = nil, installId: String? = "install-1"
    ) -> ClientContext {
        ClientContext(
            platform: platform, osVersion: os.flatMap(SemanticVersion.init),
            appVersion: app.flatMap(SemanticVersion.init),
            locale: locale, acceptLanguage: acceptLanguage, installId: installId
        )
    }

    /// The minimal fixture with `patch` merged in, validated.
    static func document(_ patch: String = "{}") throws -> PolicyDocument {
        let validation = PolicyValidator.validate(try PolicyFixtures.minimal(patchedWith: patch))
        guard let document = validation.document else {
            throw PolicyFixtures.FixtureError.invalid(validation.problems.map(\.description))
        }
        return document
    }

    // MARK: Targeting

    @Test func appliesMatchingRulesInDocumentOrderLaterWinning() throws {
        let document = try Self.document(
            """
            {"features": {"microphone": {"targeting": [
              {"name": "ios17", "when": {"os": ">=17"}, "set": {"style": "single", "cadence": {"prime": {"maxShows": 5, "backoff": 3}}}},
              {"name": "old-app", "when": {"appVersion": "<2"}, "set": {"strategy": "direct"}},
              {"name": "ios17.4", "when": {"os": ">=17.4"}, "set": {"cadence": {"prime": {"maxShows": 1}}}}
            ]}}}
            """)
        let resolved = try #require(PolicyResolver.resolve(.microphone, in: document, context: Self.make()))
        #expect(resolved.appliedRules == ["ios17", "ios17.4"])
        #expect(resolved.strategy == .prime)
        #expect(resolved.cadence.prime == CadenceRule(minIntervalHours: 72, backoff: 3, maxShows: 1))
        let older = try #require(
            PolicyResolver.resolve(.microphone, in: document, context: Self.make(os: "17.1", app: "1.9")))
        #expect(older.appliedRules == ["ios17", "old-app"])
        #expect(older.strategy == .direct)
        #expect(older.cadence.prime.maxShows == 5)
    }

    @Test(
        arguments: [
            ("{\"platform\": \"ios\"}", make(), true),
            ("{\"platform\": \"ios\"}", make(platform: .ipados), false),
            ("{\"platform\": [\"ios\", \"ipados\"]}", make(platform: .ipados), true),
            ("{\"platform\": \"ios\"}", make(platform: nil), false),
            ("{\"os\": \">=18\"}", make(os: "18.0.1"), true),
            ("{\"os\": \">=18\"}", make(os: "17.7"), false),
            ("{\"os\": \">=18\"}", make(os: nil), false),
            ("{\"appVersion\": \">=2.1 <3\"}", make(app: "2.3.0"), true),
            ("{\"appVersion\": \">=2.1 <3\"}", make(app: "3.0"), false),
            ("{\"locales\": [\"ja\"]}", make(locale: "ja-JP"), true),
            ("{\"locales\": [\"zh-Hant\"]}", make(acceptLanguage: "zh-TW, en;q=0.5"), true),
            ("{\"locales\": [\"zh-Hant\"]}", make(acceptLanguage: "zh-CN"), false),
            ("{\"locales\": [\"ja\"]}", make(), false),
            ("{}", make(platform: nil, os: nil, app: nil), true),
            ("{\"platform\": \"ios\", \"os\": \">=17\", \"locales\": [\"fr\"]}", make(locale: "fr-CA"), true),
        ] as [(String, ClientContext, Bool)])
    func matchesTargetingConditions(when: String, context: ClientContext, matches: Bool) throws {
        let document = try Self.document(
            """
            {"features": {"microphone": {"targeting": [{"name": "r", "when": \(when), "set": {"strategy": "direct"}}]}}}
            """)
        let resolved = try #require(PolicyResolver.resolve(.microphone, in: document, context: context))
        #expect((resolved.appliedRules == ["r"]) == matches)
        #expect((resolved.strategy == .direct) == matches)
    }

    // MARK: Buttons

    @Test(
        arguments: [
            (make(os: "18.0"), Strategy.button, ButtonKind?.some(.contactAccessButton)),
            (make(os: "18.2.1"), .button, .contactAccessButton),
            (make(os: "17.7"), .prime, nil),
            (make(platform: .ipados, os: "18.1"), .prime, nil),
        ] as [(ClientContext, Strategy, ButtonKind?)])
    func usesContactAccessButtonOnlyFromIOS18(context: ClientContext, strategy: Strategy, button: ButtonKind?) throws {
        let resolved = try #require(PolicyResolver.resolve(.contacts, in: try PolicyFixtures.demo(), context: context))
        #expect(resolved.strategy == strategy)
        #expect(resolved.button == button)
    }

    @Test func fallsBackToPrimeWhenTheOSIsUnknown() throws {
        let document = try Self.document(
            """
            {"features": {"locationWhenInUse": {"strategy": "button", "copy": {"en": {
              "prime": {"title": "Nearby", "message": "{appName} shows shops near you."},
              "settings": {"title": "Off", "message": "Open Settings."}, "button": {"caption": "Share once."}}}}}}
            """)
        let unknown = try #require(
            PolicyResolver.resolve(.locationWhenInUse, in: document, context: Self.make(os: nil)))
        #expect(unknown.strategy == .prime)
        let ios15 = try #require(
            PolicyResolver.resolve(.locationWhenInUse, in: document, context: Self.make(os: "15.0")))
        #expect(ios15.strategy == .button)
        #expect(ios15.button == .locationButton)
        let macos = try #require(
            PolicyResolver.resolve(.locationWhenInUse, in: document, context: Self.make(platform: .macos, os: "15.0")))
        #expect(macos.strategy == .prime)
    }

    // MARK: Experiments

    @Test func assignsVariantsDeterministicallyAndAppliesThem() throws {
        let document = try PolicyFixtures.demo()
        var seen: Set<String> = []
        for index in 0..<200 {
            let context = Self.make(installId: "install-\(index)")
            let first = try #require(PolicyResolver.resolve(.camera, in: document, context: context))
            let second = try #require(PolicyResolver.resolve(.camera, in: document, context: context))
            #expect(first == second)
            let variant = try #require(first.variant)
            #expect(variant.experiment == "camera-prime-copy")
            seen.insert(variant.variant)
            if variant.variant == "short-copy" {
                #expect(first.copy[.prime, .message] == "Prelude Demo uses the camera to scan your documents.")
            } else {
                #expect(first.copy[.prime, .message]?.hasSuffix("You decide on the next screen.") == true)
            }
        }
        #expect(seen == ["control", "short-copy"])
    }

    @Test func followsTheBucketingHash() throws {
        let document = try PolicyFixtures.demo()
        let experiment = try #require(document.experiment(for: .camera))
        for id in ["a", "b", "c", "user-42", "D5F2E5B8-1C6B-4C39-9F40-0E6A3C1B7F11"] {
            let index = Bucketing.assign(
                seed: "camera-prime-copy-2026-11", installId: id, weights: [50, 50], coverage: 1)
            let resolved = PolicyResolver.resolve(document, context: Self.make(installId: id))
            #expect(resolved.experiments.first?.variant == index.map { experiment.variants[$0].name })
        }
    }

    @Test func splitsInstallsByWeight() throws {
        let document = try Self.document(
            """
            {"experiments": [{"key": "mic", "feature": "microphone", "variants": [{"name": "a", "weight": 20}, {"name": "b", "weight": 80}]}]}
            """)
        let experiment = try #require(document.experiment(for: .microphone))
        var counts: [String: Int] = [:]
        for index in 0..<20_000 {
            let variant = PolicyResolver.assign(experiment, context: Self.make(installId: "id-\(index)"))
            counts[variant?.name ?? "none", default: 0] += 1
        }
        #expect(abs(Double(counts["a", default: 0]) / 20_000 - 0.2) < 0.02)
        #expect(abs(Double(counts["b", default: 0]) / 20_000 - 0.8) < 0.02)
    }

    @Test func enrolsNobodyWithoutInstallIdOrOutsideCoverage() throws {
        let demo = try PolicyFixtures.demo()
        let anonymous = PolicyResolver.resolve(demo, context: Self.make(installId: nil))
        #expect(anonymous[.camera]?.variant == nil)
        #expect(anonymous.experiments.map(\.variant) == [nil, nil, nil])
        let closed = try Self.document(
            """
            {"experiments": [{"key": "mic", "feature": "microphone", "coverage": 0, "variants": [{"name": "a", "weight": 100}]}]}
            """)
        #expect(PolicyResolver.resolve(.microphone, in: closed, context: Self.make())?.variant == nil)
    }

    @Test func variantWinsOverTargeting() throws {
        let document = try Self.document(
            """
            {"features": {"microphone": {"targeting": [{"name": "all", "set": {"strategy": "direct", "cadence": {"prime": {"maxShows": 7}}}}]}},
             "experiments": [{"key": "mic", "feature": "microphone", "variants": [{"name": "only", "weight": 100, "set": {"strategy": "prime"}}]}]}
            """)
        let resolved = try #require(PolicyResolver.resolve(.microphone, in: document, context: Self.make()))
        #expect(resolved.appliedRules == ["all"])
        #expect(resolved.variant == VariantAssignment(experiment: "mic", variant: "only"))
        #expect(resolved.strategy == .prime)
        #expect(resolved.cadence.prime.maxShows == 7)
    }

    // MARK: Localisation

    @Test(
        arguments: [
            (make(locale: "zh-TW"), "zh-Hant", "在Prelude Demo中拍照"),
            (make(locale: "zh-Hant-HK"), "zh-Hant", "在Prelude Demo中拍照"),
            (make(locale: "zh-CN"), "zh-Hans", "在Prelude Demo中拍照"),
            (make(locale: "zh"), "zh-Hans", "在Prelude Demo中拍照"),
            (make(locale: "fr-CA"), "fr", "Prendre des photos dans Prelude Demo"),
            (make(locale: "ja-JP"), "ja", "Prelude Demoで写真を撮る"),
            (make(locale: "de"), "en", "Take photos in Prelude Demo"),
            (make(acceptLanguage: "de-DE, ja;q=0.8, fr;q=0.5"), "ja", "Prelude Demoで写真を撮る"),
            (make(locale: "fr", acceptLanguage: "ja"), "fr", "Prendre des photos dans Prelude Demo"),
            (make(), "en", "Take photos in Prelude Demo"),
        ] as [(ClientContext, String, String)])
    func localisesCopyWithFallback(context: ClientContext, locale: String, title: String) throws {
        let resolved = PolicyResolver.resolve(try PolicyFixtures.demo(), context: context)
        #expect(resolved.locale.description == locale)
        #expect(resolved[.camera]?.copy[.prime, .title] == title)
    }

    @Test func fallsBackTextByText() throws {
        let document = try Self.document(
            """
            {"features": {"microphone": {"copy": {
              "fr": {"prime": {"title": "Notes vocales"}},
              "zh-Hant": {"prime": {"message": "{appName}會錄製語音筆記。"}},
              "zh": {"prime": {"title": "语音笔记"}}}}}}
            """)
        let french = try #require(
            PolicyResolver.resolve(.microphone, in: document, context: Self.make(locale: "fr-FR")))
        #expect(french.copy[.prime, .title] == "Notes vocales")
        #expect(french.copy[.prime, .message] == "Test App records voice notes.")
        #expect(french.copy[.prime, .continueLabel] == "Continue")
        let taiwan = try #require(
            PolicyResolver.resolve(.microphone, in: document, context: Self.make(locale: "zh-TW")))
        #expect(taiwan.copy[.prime, .message] == "Test App會錄製語音筆記。")
        #expect(taiwan.copy[.prime, .title] == "语音笔记")
    }

    // MARK: Rendering

    @Test func rendersWhatAClientNeedsToDecideOffline() throws {
        let resolved = PolicyResolver.resolve(
            try PolicyFixtures.demo(), context: Self.make(os: "18.1", locale: "ja", installId: "abc"))
        let json = resolved.jsonValue
        #expect(json["app"]?["id"] == "demo")
        #expect(json["locale"] == "ja")
        #expect(json["features"]?.objectValue?.count == 13)
        let camera = try #require(json["features"]?["camera"])
        #expect(camera["strategy"] == "prime")
        #expect(camera["style"] == "single")
        #expect(camera["cadence"]?["prime"]?["minIntervalHours"] == 72)
        #expect(camera["settings"]?["delayMs"] == 200)
        #expect(camera["settings"]?["leaveScreenFirst"] == true)
        #expect(camera["copy"]?["prime"]?["continueLabel"] == "続ける")
        #expect(camera["variant"]?["experiment"] == "camera-prime-copy")
        // Tracking: the priming cadence the engine applies, no Settings behaviour or texts it never uses.
        #expect(json["features"]?["tracking"]?["cadence"]?.objectValue?.keys == ["prime"])
        #expect(json["features"]?["tracking"]?["cadence"]?["prime"]?["minIntervalHours"] == 72)
        #expect(json["features"]?["tracking"]?["settings"] == nil)
        #expect(json["features"]?["tracking"]?["copy"]?["settings"] == nil)
        #expect(json["app"]?["minimumOS"] == "12.0")
        #expect(json["features"]?["contacts"]?["button"] == "contactAccessButton")
        #expect(json["features"]?["contacts"]?["rules"] == ["contact-access-button-ios18"])
        #expect(json["features"]?["photos"]?["partial"]?["limited"] == "limitedPicker")
        #expect(json["features"]?["notifications"]?["partial"] == ["provisional": "upgrade", "ephemeral": "proceed"])
        #expect(json["experiments"]?[0]?["key"] == "camera-prime-copy")
        #expect(json["experiments"]?[0]?["variant"]?.stringValue != nil)
        // Rendering is deterministic: the same input gives the same bytes.
        let again = PolicyResolver.resolve(
            try PolicyFixtures.demo(), context: Self.make(os: "18.1", locale: "ja", installId: "abc"))
        #expect(again.jsonValue.serializedBytes() == json.serializedBytes())
    }
}
