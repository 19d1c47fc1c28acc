import PreludeCore
import Testing

@testable import PreludePreview

@Suite struct PreviewRendererTests {
    /// Occurrences of `needle` in `text`.
    private func count(_ needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    @Test func drawsEveryScreenOfTheDemoWithAnAnchorAndItsData() throws {
        let input = PreviewFixtures.input(try PreviewFixtures.demo())
        let html = PreviewRenderer.render(input)
        #expect(input.screens.count > 200)
        #expect(count("<figure class=\"screen", in: html) == input.screens.count)
        for screen in input.screens {
            let anchor = "id=\"\(PreviewRenderer.screenAnchor(screen))\""
            #expect(count(anchor, in: html) == 1, "\(screen.id)")
        }
        for feature in input.document.features.keys {
            #expect(html.contains("href=\"#f.\(feature.rawValue)\""), "index links \(feature)")
        }
        for locale in ["en", "fr", "ja", "zh-Hans", "zh-Hant"] {
            #expect(html.contains("data-locale=\"\(locale)\""))
        }
        #expect(html.contains("data-variant=\"experiment:camera-prime-copy:short-copy\""))
        // Light and dark of every screen.
        #expect(count("data-theme=\"light\"", in: html) == input.screens.count)
        #expect(count("data-theme=\"dark\"", in: html) == input.screens.count)
    }

    @Test func showsTheRevisionAndHashInTheIndex() throws {
        let input = PreviewFixtures.input(try PreviewFixtures.demo(), origin: "revision 7 (live)", revision: 7)
        let html = PreviewRenderer.render(input)
        #expect(html.contains("<dd id=\"revision\">7</dd>"))
        #expect(html.contains("<dd id=\"sha256\"><code>\(input.sha256)</code></dd>"))
        #expect(html.contains("<dd id=\"origin\">revision 7 (live)</dd>"))
    }

    @Test func isSelfContainedAndDeterministic() throws {
        let document = try PreviewFixtures.demo()
        let first = PreviewRenderer.render(PreviewFixtures.input(document))
        let second = PreviewRenderer.render(PreviewFixtures.input(document))
        #expect(first == second)
        #expect(!first.contains("<script"))
        #expect(!first.contains("http://") && !first.contains("https://"), "no external reference")
        #expect(!first.contains("<link") && !first.contains("<img") && !first.contains("url("))
    }

    @Test func escapesHTMLInCopyAndNames() throws {
        let html = PreviewRenderer.render(PreviewFixtures.input(try PreviewFixtures.fixture("bad-policy.json")))
        #expect(!html.contains("<script>alert"))
        #expect(html.contains("Camera access is off &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"))
        #expect(html.contains("Preview of Bad &lt;b&gt;App&lt;/b&gt; &amp; Co"))
        #expect(!html.contains("<b>App</b>"))
    }

    @Test func rendersRightToLeftLocalesRightToLeft() throws {
        let input = PreviewFixtures.input(try PreviewFixtures.fixture("rtl-policy.json"))
        let html = PreviewRenderer.render(input)
        let arabic = input.screens.filter { $0.locale.description == "ar" }.count
        let hebrew = input.screens.filter { $0.locale.description == "he" }.count
        let english = input.screens.filter { $0.locale.description == "en" }.count
        #expect(arabic > 0 && hebrew > 0)
        // Two devices (light and dark) per screen.
        #expect(count("dir=\"rtl\" lang=\"ar\"", in: html) == 2 * arabic)
        #expect(count("dir=\"rtl\" lang=\"he\"", in: html) == 2 * hebrew)
        #expect(count("dir=\"ltr\" lang=\"en\"", in: html) == 2 * english)
    }

    @Test(arguments: [
        ("ar", TextDirection.rtl), ("he", .rtl), ("fa-IR", .rtl), ("ur", .rtl), ("az-Arab", .rtl), ("en", .ltr),
        ("ja", .ltr), ("ku-Latn", .ltr),
    ])
    func textDirectionFollowsLanguageAndScript(tag: String, direction: TextDirection) throws {
        #expect(TextDirection(try #require(LocaleTag(tag))) == direction)
    }

    @Test func marksLintFindingsAndTheirWordsOnTheScreens() throws {
        let input = PreviewFixtures.input(try PreviewFixtures.fixture("bad-policy.json"))
        let html = PreviewRenderer.render(input)
        #expect(html.contains("data-rule=\"PA-1\""))
        #expect(html.contains("data-rule=\"DN-2\""))
        #expect(html.contains("<mark>Allow</mark>"))
        #expect(html.contains("Get 100 <mark>free</mark> coins"))
        // Every finding is listed in the index.
        #expect(count("<tr class=\"sev-", in: html) == input.findings.count)
    }

    @Test func comparesWithTheLiveDocumentAndMarksChangedScreens() throws {
        let live = try PreviewFixtures.demo()
        var proposed = live
        var camera = try #require(proposed.features[.camera])
        camera.settings.copy[try #require(LocaleTag("en"))]?[.denied, .title] = "The camera is off"
        proposed.features[.camera] = camera
        proposed.features[.tracking] = nil
        let html = PreviewRenderer.render(PreviewFixtures.input(proposed), comparedWith: PreviewFixtures.input(live))
        // The base and both experiment arms of camera in English show the new title.
        #expect(count("data-change=\"changed\"", in: html) == 3)
        #expect(html.contains("id=\"s.camera.en.base.deniedScreen\""))
        #expect(count("<p class=\"side-label\">live</p>", in: html) == 3)
        let trackingScreens = PreviewFixtures.input(live).screens.filter { $0.feature == .tracking }.count
        #expect(count("data-change=\"removed\"", in: html) == trackingScreens)
        #expect(html.contains("3 changed, 0 added, \(trackingScreens) removed"))
        // Without a change, nothing is marked.
        let same = PreviewRenderer.render(PreviewFixtures.input(live), comparedWith: PreviewFixtures.input(live))
        #expect(count("data-change=\"unchanged\"", in: same) == PreviewFixtures.input(live).screens.count)
    }

    @Test func flagsTextsThatOverflowTheScreen() throws {
        let input = PreviewFixtures.input(try PreviewFixtures.fixture("bad-policy.json"))
        let html = PreviewRenderer.render(input)
        #expect(count("data-overflow=\"message\"", in: html) == 1)
        #expect(html.contains("message needs about"))
        let demo = PreviewRenderer.render(PreviewFixtures.input(try PreviewFixtures.demo()))
        #expect(!demo.contains("data-overflow=\"t") && !demo.contains("data-overflow=\"m"))
        #expect(demo.contains("0 with a text that overflows"))
    }
}
