import PreludeCore
import Testing

@Suite struct LocaleFallbackTests {
    @Test(arguments: [
        ("zh-Hant-TW", ["zh-Hant-TW", "zh-Hant", "zh"]),
        ("zh-TW", ["zh-TW", "zh-Hant-TW", "zh-Hant", "zh"]),
        ("zh-HK", ["zh-HK", "zh-Hant-HK", "zh-Hant", "zh"]),
        ("zh-MO", ["zh-MO", "zh-Hant-MO", "zh-Hant", "zh"]),
        ("zh-CN", ["zh-CN", "zh-Hans-CN", "zh-Hans", "zh"]),
        ("zh-SG", ["zh-SG", "zh-Hans-SG", "zh-Hans", "zh"]),
        ("zh-Hans", ["zh-Hans", "zh"]),
        ("zh-Hant", ["zh-Hant", "zh"]),
        ("zh", ["zh", "zh-Hans"]),
        ("sr-Latn", ["sr-Latn", "sr"]),
        ("sr-Latn-RS", ["sr-Latn-RS", "sr-Latn", "sr"]),
        ("sr-RS", ["sr-RS", "sr-Cyrl-RS", "sr-Cyrl", "sr"]),
        ("sr-ME", ["sr-ME", "sr-Latn-ME", "sr-Latn", "sr"]),
        ("en-GB", ["en-GB", "en"]),
        ("en", ["en"]),
        ("fr-CA", ["fr-CA", "fr"]),
        ("es-419", ["es-419", "es"]),
        ("ja-JP", ["ja-JP", "ja"]),
    ])
    func chainFollowsTruncationWithImpliedScripts(tag: String, expected: [String]) throws {
        let locale = try #require(LocaleTag(tag))
        #expect(locale.fallbackChain.map(\.description) == expected)
    }

    static let demoLocales: Set<LocaleTag> = ["en", "fr", "ja", "zh-Hans", "zh-Hant"].reduce(into: []) {
        $0.insert(LocaleTag($1)!)
    }

    @Test(
        arguments: [
            // (explicit, Accept-Language, expected)
            (nil, "zh-TW", "zh-Hant"),
            (nil, "zh-HK,en;q=0.5", "zh-Hant"),
            (nil, "zh-CN", "zh-Hans"),
            (nil, "zh-SG", "zh-Hans"),
            (nil, "zh", "zh-Hans"),
            (nil, "zh-Hant-TW", "zh-Hant"),
            (nil, "en-GB", "en"),
            (nil, "fr-CA, en;q=0.8", "fr"),
            (nil, "de-DE, ja;q=0.9, en;q=0.8", "ja"),
            (nil, "de-DE, en;q=0.1, ja;q=0.9", "ja"),
            (nil, "de, *;q=0.5, ja;q=0.1", "en"),
            (nil, "de, it", "en"),
            (nil, "ja;q=0, fr", "fr"),
            (nil, "garbage;;;", "en"),
            (nil, "", "en"),
            (nil, nil, "en"),
            ("fr", "ja", "fr"),
            ("fr-BE", "ja", "fr"),
            ("zh_TW", "en", "zh-Hant"),
            ("de", "ja", "ja"),
            ("not a tag", "ja", "ja"),
        ] as [(String?, String?, String)])
    func resolvesFromExplicitThenAcceptLanguageThenDefault(explicit: String?, header: String?, expected: String) {
        let resolved = LocaleResolver.resolve(
            explicit: explicit, acceptLanguage: header, available: Self.demoLocales, defaultLocale: LocaleTag("en")!)
        #expect(resolved.description == expected)
    }

    @Test func resolvesSerbianLatinToLatinCopyBeforeBareSerbian() {
        let available: Set<LocaleTag> = [LocaleTag("sr")!, LocaleTag("sr-Latn")!, LocaleTag("en")!]
        let resolve = { (header: String) in
            LocaleResolver.resolve(
                explicit: nil, acceptLanguage: header, available: available, defaultLocale: LocaleTag("en")!
            ).description
        }
        #expect(resolve("sr-Latn-RS") == "sr-Latn")
        #expect(resolve("sr-RS") == "sr")
    }

    @Test(arguments: [
        ("zh-Hant-TW", ["zh-Hant-TW", "zh-Hant", "zh"], "en", ["zh-Hant-TW", "zh-Hant", "zh", "en"]),
        ("zh-Hant-TW", ["zh-Hant", "en"], "en", ["zh-Hant", "en"]),
        ("zh-TW", ["zh-Hant", "zh-Hans", "en"], "en", ["zh-Hant", "en"]),
        ("en-GB", ["en-GB", "en"], "en", ["en-GB", "en"]),
        ("en", ["en", "fr"], "en", ["en"]),
        ("fr-CA", ["fr-CA", "fr", "en-US"], "en-US", ["fr-CA", "fr", "en-US"]),
        ("zh-Hant-TW", ["zh-Hant-TW", "zh-Hant", "zh"], "zh-Hant", ["zh-Hant-TW", "zh-Hant"]),
    ])
    func perStringChainEndsWithDefault(tag: String, available: [String], defaultLocale: String, expected: [String]) {
        let chain = LocaleResolver.fallbackChain(
            for: LocaleTag(tag)!,
            available: Set(available.map { LocaleTag($0)! }),
            defaultLocale: LocaleTag(defaultLocale)!)
        #expect(chain.map(\.description) == expected)
    }
}
