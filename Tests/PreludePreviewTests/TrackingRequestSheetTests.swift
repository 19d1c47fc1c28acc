import PreludeCore
import Testing

@testable import PreludePreview

@Suite struct TrackingRequestSheetTests {
    /// Occurrences of `needle` in `text`.
    private func count(_ needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    /// Tracking's purpose strings as a team would intend them, in English and French (the demo policy carries none:
    /// its served document is its canonical form, which server-only members would change).
    static let intended: [String: [String: String]] = [
        "en": [
            "NSUserTrackingUsageDescription":
                "We use your activity in other companies’ apps and websites to show you ads that fit your interests, "
                + "for example ads for running shoes after you read about running.",
            "NSUserTrackingMarkdownUsageDescription":
                "With your permission, we use **your activity in other companies’ apps and websites** to show you "
                + "ads that fit your interests.\n\nFor example:\n- ads for *running shoes* after you read about "
                + "running\n- fewer ads for things you already bought\n\nWe show ads either way; without your "
                + "permission they do not use this activity.",
        ],
        "fr": [
            "NSUserTrackingUsageDescription":
                "Nous utilisons votre activité dans les apps et sites d’autres sociétés pour mieux cibler nos "
                + "publicités, par exemple des chaussures de course après un article sur la course.",
            "NSUserTrackingMarkdownUsageDescription":
                "Avec votre accord, nous utilisons **votre activité dans les apps et sites d’autres sociétés** pour "
                + "vous montrer des publicités selon vos centres d’intérêt.\n\nPar exemple :\n- des publicités pour "
                + "des *chaussures de course* après un article sur la course\n- moins de publicités pour ce que vous "
                + "avez déjà acheté\n\nNous affichons des publicités dans tous les cas ; sans votre accord, elles "
                + "n’utilisent pas cette activité.",
        ],
    ]

    /// The demo with `strings` as tracking's intended purpose strings (locale → key → text).
    private func demo(purposeStrings strings: [String: [String: String]]) throws -> PolicyDocument {
        var document = try PreviewFixtures.demo()
        var byLocale: [LocaleTag: [String: String]] = [:]
        for (tag, texts) in strings { byLocale[try #require(LocaleTag(tag))] = texts }
        document.features[.tracking]?.purposeStrings = byLocale
        return document
    }

    /// The HTML of the figure with id `anchor`.
    private func figure(_ anchor: String, in html: String) throws -> Substring {
        let start = try #require(html.range(of: "id=\"\(anchor)\""))
        let end = try #require(html[start.upperBound...].range(of: "</figure>"))
        return html[start.lowerBound..<end.lowerBound]
    }

    @Test func theIntendedStringsLintClean() throws {
        let findings = CopyLinter.lint(try demo(purposeStrings: Self.intended))
        let own = findings.filter { $0.pointer.description.hasPrefix("/features/tracking/purposeStrings") }
        #expect(own.filter { $0.severity != .info }.isEmpty, "\(own)")
    }

    @Test func drawsTheFullPageBesideEveryTrackingPrimingScreen() throws {
        let input = PreviewFixtures.input(try demo(purposeStrings: Self.intended))
        let html = PreviewRenderer.render(input)
        let priming = input.screens.filter { $0.feature == .tracking && $0.action == .prime }
        #expect(!priming.isEmpty)
        #expect(count("<div class=\"att-sheet\"", in: html) == priming.count)
        for screen in priming {
            let drawn = try figure(PreviewRenderer.screenAnchor(screen), in: html)
            #expect(drawn.contains("<div class=\"att-sheet\" data-key=\"NSUserTrackingMarkdownUsageDescription\""))
            #expect(drawn.contains("<span class=\"badge approx\">approximation</span>"))
            #expect(drawn.contains("Allow “\(input.document.app.name)” to track your activity"))
            #expect(drawn.contains("Ask App Not to Track") && drawn.contains(">Allow</p>"))
            #expect(drawn.contains("Additional Information"))
            // Light and dark, like the screen.
            #expect(count("class=\"device att light\"", in: String(drawn)) == 1)
            #expect(count("class=\"device att dark\"", in: String(drawn)) == 1)
        }
        let english = try figure(
            PreviewRenderer.screenAnchor(try #require(priming.first { $0.locale.description == "en" })), in: html)
        #expect(english.contains("<strong>your activity in other companies’ apps and websites</strong>"))
        #expect(english.contains("<ul><li>ads for <em>running shoes</em> after you read about running</li>"))
        let french = try figure(
            PreviewRenderer.screenAnchor(try #require(priming.first { $0.locale.description == "fr" })), in: html)
        #expect(french.contains("data-source=\"fr\"") && french.contains("<strong>votre activité"))
        // Japanese has no purpose strings in the policy: the development language's, as iOS falls back.
        let japanese = try figure(
            PreviewRenderer.screenAnchor(try #require(priming.first { $0.locale.description == "ja" })), in: html)
        #expect(japanese.contains("data-source=\"en\""))
        // Only priming screens: the denied screen has no sheet.
        let denied = try #require(input.screens.first { $0.feature == .tracking && $0.action == .deniedScreen })
        #expect(!(try figure(PreviewRenderer.screenAnchor(denied), in: html)).contains("att-sheet"))
    }

    @Test func fallsBackToThePlainStringAsText() throws {
        let document = try demo(purposeStrings: [
            "en": ["NSUserTrackingUsageDescription": "We use **your** activity <b>to show</b> ads that fit you."]
        ])
        let input = PreviewFixtures.input(document)
        let html = PreviewRenderer.render(input)
        let screen = try #require(input.screens.first { $0.feature == .tracking && $0.action == .prime })
        let drawn = try figure(PreviewRenderer.screenAnchor(screen), in: html)
        #expect(drawn.contains("data-key=\"NSUserTrackingUsageDescription\""))
        // Plain text: the asterisks are the string's characters, the tag is escaped.
        #expect(drawn.contains("<p>We use **your** activity &lt;b&gt;to show&lt;/b&gt; ads that fit you.</p>"))
    }

    @Test func nothingIsDrawnWithoutPurposeStrings() throws {
        let input = PreviewFixtures.input(try demo(purposeStrings: [:]))
        let html = PreviewRenderer.render(input)
        #expect(!html.contains("<div class=\"att-sheet\""))
        // Without the sheet, every device frame is a screen's (light and dark).
        #expect(count("data-theme=\"light\"", in: html) == input.screens.count)
    }

    @Test func hostileMarkdownAndAppNamesReachThePageEscaped() throws {
        var document = try demo(purposeStrings: [
            "en": [
                "NSUserTrackingUsageDescription": "Ads.",
                "NSUserTrackingMarkdownUsageDescription":
                    "**<script>alert(1)</script>**\n- <img src=x onerror=alert(2)>\n- \"><svg onload=alert(3)>",
            ]
        ])
        document.app.name = "Evil <script>alert(4)</script> & Co"
        let html = PreviewRenderer.render(PreviewFixtures.input(document))
        #expect(!html.contains("<script") && !html.contains("<img") && !html.contains("<svg"))
        #expect(html.contains("<strong>&lt;script&gt;alert(1)&lt;/script&gt;</strong>"))
        #expect(html.contains("<li>&lt;img src=x onerror=alert(2)&gt;</li>"))
        #expect(html.contains("Allow “Evil &lt;script&gt;alert(4)&lt;/script&gt; &amp; Co” to track"))
    }

    @Test func theSheetFollowsTheLocalesDirection() throws {
        let document = try demo(purposeStrings: ["en": ["NSUserTrackingUsageDescription": "We show ads."]])
        let english = try #require(LocaleTag("en"))
        let sheet = try #require(TrackingRequestSheet(document: document, locale: english))
        var html = ""
        sheet.draw(direction: .rtl, lang: "ar", into: &html)
        #expect(count("dir=\"rtl\" lang=\"ar\"", in: html) == 2)
    }
}
