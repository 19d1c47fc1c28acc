import PreludeCore
import Testing

@testable import PreludeService

/// The snapshot's memory of explicit `locale` values must answer exactly what the core derives, stay bounded,
/// and remember values that do not parse too.
@Suite struct ExplicitLocaleMemoTests {
    static let shape = PublicResolutionKeyTests.snapshot.keyShape

    @Test(arguments: ["fr", "fr-CA", "fr_CA", "de-DE-1996", "zh-Hant-TW", "xx", "en-US", "pt-BR", "1x", "", "fr--CA"])
    func answersWhatTheShapeDerives(value: String) {
        let memo = ExplicitLocaleMemo(shape: Self.shape)
        let expected = Self.shape.explicitLocale(value)
        for _ in 0..<2 {  // computed, then remembered
            let answer = memo.explicitLocale(value)
            #expect(answer?.tag == expected?.tag)
            #expect(answer?.match == expected?.match)
        }
        #expect(memo.count == 1)
    }

    @Test func keysThroughTheMemoEqualTheCoresKeys() {
        let memo = ExplicitLocaleMemo(shape: Self.shape)
        for locale in ["fr", "fr-CA", "de", "xx-YY", "es-419"] {
            for acceptLanguage in [nil, "de-DE, fr;q=0.5", "*"] {
                let context = PublicResolutionKeyTests.context(locale: locale, acceptLanguage: acceptLanguage)
                let viaMemo = ResolutionKey(
                    context: context, shape: Self.shape, explicitLocale: memo.explicitLocale(locale))
                #expect(viaMemo == ResolutionKey(context: context, shape: Self.shape))
            }
        }
    }

    @Test func staysWithinItsCapacity() {
        let memo = ExplicitLocaleMemo(shape: Self.shape, capacity: 8)
        for n in 0..<100 { _ = memo.explicitLocale("fr-\(n)") }
        #expect(memo.count <= 8)
        #expect(memo.explicitLocale("fr")?.match == LocaleTag("fr"))
    }

    @Test func aValueThatDoesNotParseIsRemembered() {
        let memo = ExplicitLocaleMemo(shape: Self.shape)
        #expect(memo.explicitLocale("not a locale") == nil)
        #expect(memo.explicitLocale("not a locale") == nil)
        #expect(memo.count == 1)
    }
}
