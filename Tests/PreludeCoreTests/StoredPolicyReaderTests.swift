import PreludeCore
import Testing

/// A revision an earlier build accepted is served by every later build: rules added since become findings, a
/// newly required text is served from ``CopyFallback``, and only what no build could read is refused.
@Suite struct StoredPolicyReaderTests {
    static func health(unsupported: String = #","unsupported":{"title":"No Health","message":"No Health app."}"#)
        -> String
    {
        """
        {"schemaVersion":1,"app":{"id":"tiny"},"features":{"health":{"strategy":"direct","copy":{"en":{
          "settings":{"title":"Health is off","message":"Open Settings.","openLabel":"Open Settings","cancelLabel":"Not Now"},
          "denied":{"title":"Health is off","message":"Turn it on in Settings."}\(unsupported)}}}}}
        """
    }

    @Test func aValidRevisionIsServedAsWritten() throws {
        let reading = StoredPolicyReader.read(text: Self.health())
        #expect(reading.isServedAsWritten)
        #expect(reading.fallbacks.isEmpty && reading.refusal == nil)
    }

    @Test func aNewlyRequiredTextIsServedFromTheFallbackWithAFinding() throws {
        let reading = StoredPolicyReader.read(text: Self.health(unsupported: ""))
        let document = try #require(reading.document, "\(reading.refusal ?? "")")
        #expect(
            reading.fallbacks.map(\.description) == [
                "/features/health/copy/en/unsupported/message", "/features/health/copy/en/unsupported/title",
            ])
        #expect(reading.findings.map(\.code) == [.missingCopy, .missingCopy])
        let texts = try #require(document.features[.health]?.settings.copy[LocaleTag("en")!]?.texts)
        #expect(texts[CopyKey(.unsupported, .title)] == CopyFallback.text(CopyKey(.unsupported, .title)))
        // The served document is one this build accepts.
        #expect(PolicyValidator.validate(document) == [])
    }

    @Test func everyFallbackTextIsStorable() throws {
        for key in CopyKey.all {
            let text = CopyFallback.text(key)
            #expect(!text.isEmpty)
            #expect(StoredText.problem(in: text) == nil)
        }
    }

    @Test(arguments: [
        ("not json", "not JSON"),
        (#"{"schemaVersion":2,"app":{"id":"tiny"},"features":{}}"#, "another schema"),
        (#"{"schemaVersion":1,"app":"tiny","features":{}}"#, "does not decode"),
    ])
    func whatNoBuildCouldReadIsRefused(text: String, reason: String) {
        let reading = StoredPolicyReader.read(text: text)
        #expect(reading.document == nil)
        #expect(reading.refusal?.contains(reason) == true, "\(reading.refusal ?? "nil")")
    }
}
