import Foundation
import PreludeCore
import Testing

@Suite struct LocaleTagTests {
    @Test(arguments: [
        ("fr", "fr"),
        ("en-US", "en-US"),
        ("en_us", "en-US"),
        ("EN-us", "en-US"),
        ("zh-hant-tw", "zh-Hant-TW"),
        ("ZH_HANT_TW", "zh-Hant-TW"),
        ("zh-Hans", "zh-Hans"),
        ("sr-latn-rs", "sr-Latn-RS"),
        ("es-419", "es-419"),
        ("yue-HK", "yue-HK"),
        ("iw-IL", "he-IL"),
        ("in", "id"),
    ])
    func parsesAndNormalisesCase(input: String, canonical: String) throws {
        let tag = try #require(LocaleTag(input))
        #expect(tag.description == canonical)
    }

    @Test(arguments: [
        "", "e", "english", "en-", "-en", "en--US", "en-US-", "en US", "é", "en-USA", "en-U1",
        "de-DE-1996", "en-u-ca-buddhist", "x-private", "i-klingon", "12", "en-Latn-US-extra", "zh-Hant-TW-",
    ])
    func rejectsMalformedOrUnrepresentableTags(input: String) {
        #expect(LocaleTag(input) == nil)
    }

    @Test(arguments: [
        ("de-DE-1996", "de-DE"),
        ("en-US-u-ca-buddhist", "en-US"),
        ("zh-Hant-TW-x-private", "zh-Hant-TW"),
        ("en-USA", "en"),
    ])
    func prefixParsingDropsVariantsAndExtensions(input: String, canonical: String) throws {
        let tag = try #require(LocaleTag(parsingPrefixOf: input))
        #expect(tag.description == canonical)
    }

    @Test func prefixParsingStillRejectsGarbage() {
        #expect(LocaleTag(parsingPrefixOf: "en--US") == nil)
        #expect(LocaleTag(parsingPrefixOf: "en-") == nil)
        #expect(LocaleTag(parsingPrefixOf: "*") == nil)
    }

    @Test func exposesParts() throws {
        let tag = try #require(LocaleTag("zh_hant_tw"))
        #expect(tag.language == "zh")
        #expect(tag.script == "Hant")
        #expect(tag.region == "TW")
        let bare = try #require(LocaleTag("fr"))
        #expect(bare.script == nil)
        #expect(bare.region == nil)
    }

    @Test func buildsFromParts() {
        #expect(LocaleTag(language: "ZH", script: "hant", region: "tw")?.description == "zh-Hant-TW")
        #expect(LocaleTag(language: "pt", region: "BR")?.description == "pt-BR")
        #expect(LocaleTag(language: "pt", region: "Brazil") == nil)
    }

    @Test func equalityIgnoresInputCaseAndSeparator() {
        #expect(LocaleTag("zh_Hant_TW") == LocaleTag("ZH-HANT-tw"))
        #expect(Set([LocaleTag("en-us")!, LocaleTag("en_US")!]).count == 1)
    }

    @Test func codableAsSingleString() throws {
        let tags = [LocaleTag("zh-Hant-TW")!, LocaleTag("fr")!]
        let data = try JSONEncoder().encode(tags)
        #expect(String(decoding: data, as: UTF8.self) == #"["zh-Hant-TW","fr"]"#)
        #expect(try JSONDecoder().decode([LocaleTag].self, from: Data(#"["en_gb"]"#.utf8)) == [LocaleTag("en-GB")!])
    }

    @Test func decodingAMalformedTagFails() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([LocaleTag].self, from: Data(#"["english"]"#.utf8))
        }
    }
}

/// Tags compare and hash by their packed subtags: equal exactly when their canonical forms are equal.
@Suite struct LocaleTagPackingTests {
    static let languages = ["en", "fr", "zh", "sr", "yue", "he", "iw", "zz", "az", "aa"]
    static let scripts: [String?] = [nil, "Hant", "Hans", "Latn", "Cyrl", "Zzzz"]
    static let regions: [String?] = [nil, "US", "CA", "TW", "419", "001", "999", "ZZ", "AA"]

    static var tags: [LocaleTag] {
        languages.flatMap { language in
            scripts.flatMap { script in
                regions.compactMap { region in LocaleTag(language: language, script: script, region: region) }
            }
        }
    }

    @Test func equalExactlyWhenTheCanonicalFormsAre() {
        let tags = Self.tags
        #expect(tags.count == Self.languages.count * Self.scripts.count * Self.regions.count)
        for a in tags {
            for b in tags {
                #expect((a == b) == (a.description == b.description), "\(a) vs \(b)")
                if a == b { #expect(a.hashValue == b.hashValue && a.fingerprint == b.fingerprint) }
            }
        }
        #expect(Set(tags.map(\.fingerprint)).count == Set(tags.map(\.description)).count)
    }

    @Test func spellingsOfOneTagAreOneTag() throws {
        let tag = try #require(LocaleTag("zh-Hant-TW"))
        for spelling in ["ZH_hant_tw", "zh-HANT-tw", "zh_Hant-TW"] {
            let other = try #require(LocaleTag(spelling))
            #expect(other == tag && other.hashValue == tag.hashValue)
        }
        #expect(LocaleTag("iw") == LocaleTag("he"))  // the preferred code
        #expect(LocaleTag("en-US") != LocaleTag("en"))
        #expect(LocaleTag("es-419") != LocaleTag("es-41"))
    }
}
