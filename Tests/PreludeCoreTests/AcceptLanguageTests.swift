import PreludeCore
import Testing

@Suite struct AcceptLanguageTests {
    private func summary(_ header: String) -> [String] {
        AcceptLanguage.parse(header).map { "\($0.range)@\($0.quality)" }
    }

    @Test(arguments: [
        ("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5", ["fr-CH@1.0", "fr@0.9", "en@0.8", "de@0.7", "*@0.5"]),
        ("en;q=0.5, ja", ["ja@1.0", "en@0.5"]),
        ("da, en-gb;q=0.8, en;q=0.7", ["da@1.0", "en-gb@0.8", "en@0.7"]),
        ("a1;q=0.5", []),
        ("de;q=0.5, fr;q=0.5, it;q=0.5", ["de@0.5", "fr@0.5", "it@0.5"]),
        ("it;q=0.2, de;q=0.5, fr;q=0.5", ["de@0.5", "fr@0.5", "it@0.2"]),
        ("ja;q=0, en", ["en@1.0"]),
        ("ja;q=0.000, en;q=0.001", ["en@0.001"]),
        ("en;q=1.000", ["en@1.0"]),
        ("en;q=1.001", []),
        ("en;q=2", []),
        ("en;q=0.1234", []),
        ("en;q=.5", []),
        ("en;q=", []),
        ("en;q=-1", []),
        ("en;Q=0.3", ["en@0.3"]),
        ("en ; q=0.3", ["en@0.3"]),
        ("en;level=1", []),
        ("en;q=0.5;q=0.4", []),
        (" , ,en,, ", ["en@1.0"]),
        ("", []),
        ("*", ["*@1.0"]),
        ("x-klingon, i-default, en", ["en@1.0"]),
        ("en_US, zh-Hant-TW;q=0.9", ["en_US@1.0", "zh-Hant-TW@0.9"]),
        ("de-DE-1996;q=0.8", ["de-DE-1996@0.8"]),
        ("en-, -en, en--us, 123, ja", ["ja@1.0"]),
        ("toolonglanguage, fr", ["fr@1.0"]),
    ])
    func parsesRangesAndWeights(header: String, expected: [String]) {
        #expect(summary(header) == expected)
    }

    @Test func tagsAreParsedAndWildcardHasNone() throws {
        let entries = AcceptLanguage.parse("ZH_hant_TW;q=0.8, *;q=0.1, de-DE-1996")
        #expect(entries.map { $0.tag?.description } == ["de-DE", "zh-Hant-TW", nil])
    }
}
