import PreludeCore
import Testing

@testable import PreludePreview

@Suite struct MarkdownHTMLTests {
    @Test(arguments: [
        ("Plain text.", "<p>Plain text.</p>"),
        (
            "We use **your activity** to show *relevant* ads.",
            "<p>We use <strong>your activity</strong> to show <em>relevant</em> ads.</p>"
        ),
        ("__Bold__ and _italic_.", "<p><strong>Bold</strong> and <em>italic</em>.</p>"),
        ("**bold with *italic* inside**", "<p><strong>bold with <em>italic</em> inside</strong></p>"),
        ("*italic with **bold** inside*", "<p><em>italic with <strong>bold</strong> inside</em></p>"),
        ("First paragraph\ncontinued.\n\nSecond.", "<p>First paragraph\ncontinued.</p><p>Second.</p>"),
        ("Line one.\r\n\r\nLine two.", "<p>Line one.</p><p>Line two.</p>"),
        (
            "We use:\n- your activity\n* ads you saw\n+ purchases\n• **visits**",
            "<p>We use:</p><ul><li>your activity</li><li>ads you saw</li><li>purchases</li>"
                + "<li><strong>visits</strong></li></ul>"
        ),
        ("- one\n\n- two", "<ul><li>one</li></ul><ul><li>two</li></ul>"),
        ("- item\nAfter the list.", "<ul><li>item</li></ul><p>After the list.</p>"),
        ("", ""),
        ("\n\n  \n", ""),
    ])
    func rendersTheSubset(markdown: String, html: String) {
        #expect(MarkdownHTML.render(markdown) == html)
    }

    @Test(arguments: [
        // Unbalanced or unopenable delimiters stay as written.
        ("**never closed", "<p>**never closed</p>"),
        ("a ** b ** c", "<p>a ** b ** c</p>"),
        ("2 * 3 * 4", "<p>2 * 3 * 4</p>"),
        ("*one **two*", "<p><em>one **two</em></p>"),
        ("**", "<p>**</p>"),
        ("****", "<p>****</p>"),
        ("snake_case_name and _real_", "<p>snake_case_name and <em>real</em></p>"),
        // Deeper than two levels: the third is literal.
        ("**a *b __c__ b* a**", "<p><strong>a <em>b __c__ b</em> a</strong></p>"),
    ])
    func leavesWhatItCannotMatchAsText(markdown: String, html: String) {
        #expect(MarkdownHTML.render(markdown) == html)
    }

    @Test func nestedListsAreOneLevelAsTheSubsetHasOne() {
        #expect(
            MarkdownHTML.render("- outer\n  - inner\n    - innermost\n- next")
                == "<ul><li>outer</li><li>inner</li><li>innermost</li><li>next</li></ul>")
    }

    @Test func constructsOutsideTheSubsetAreDrawnAsTheirText() {
        #expect(MarkdownHTML.render("# Heading") == "<p># Heading</p>")
        #expect(MarkdownHTML.render("1. First\n2. Second") == "<p>1. First\n2. Second</p>")
        #expect(
            MarkdownHTML.render("See [the policy](https://example.com).")
                == "<p>See [the policy](https://example.com).</p>")
    }

    @Test(arguments: [
        "<script>alert('x')</script>",
        "**<script>alert(1)</script>**",
        "*<img src=x onerror=alert(1)>*",
        "- <b onclick=\"x()\">item</b>\n- & \"quoted\" 'single'",
        "**<u>under</u>** _</em></strong><script>_",
        "<p>**</p>*<ul>*",
        "\"><svg onload=alert(1)>",
    ])
    func escapesEveryCharacterOfHostileInput(markdown: String) {
        let html = MarkdownHTML.render(markdown)
        #expect(Self.onlyOwnTags(html), "\(html)")
        #expect(!html.contains("<script") && !html.contains("<img") && !html.contains("<svg"))
        #expect(!html.contains("\"") && !html.contains("'"), "quotes are escaped: \(html)")
    }

    @Test func escapesEveryCharacterOfAVeryLongHostileInput() {
        // 240 000 characters of unbalanced delimiters, tags and bullets: linear work (each delimiter kind fails to
        // find a closer once), and nothing unescaped.
        var markdown = ""
        for index in 0..<8000 {
            markdown += index % 3 == 0 ? "- **<script>" : (index % 3 == 1 ? "*_</p>&\n" : "__x ** y_ *\n\n")
        }
        markdown += String(repeating: "*", count: 100_000) + String(repeating: "<", count: 50_000)
        let html = MarkdownHTML.render(markdown)
        #expect(Self.onlyOwnTags(html))
        #expect(!html.contains("<script"))
        #expect(html.hasSuffix(String(repeating: "&lt;", count: 50_000) + "</p>"))
    }

    @Test func plainTextOfTheRenderIsTheSubsetsPlainText() {
        // The words the sheet shows are the ones lint checks (MarkdownSubset.plainText).
        let markdown = "We show ads that fit **you**.\n\n- Your *activity* in other apps\n- Your activity on websites"
        let html = MarkdownHTML.render(markdown)
        let text = Self.stripTags(html)
        #expect(text == "We show ads that fit you. Your activity in other apps Your activity on websites")
        #expect(text == MarkdownSubset.plainText(markdown))
    }

    /// Whether every `<` of `html` opens one of the renderer's own tags, and they nest properly.
    static func onlyOwnTags(_ html: String) -> Bool {
        let own = ["p", "ul", "li", "strong", "em"]
        var stack: [String] = []
        var rest = Substring(html)
        while let open = rest.firstIndex(of: "<") {
            guard let close = rest[open...].firstIndex(of: ">") else { return false }
            let tag = rest[rest.index(after: open)..<close]
            if tag.hasPrefix("/") {
                guard stack.popLast() == String(tag.dropFirst()) else { return false }
            } else {
                guard own.contains(String(tag)) else { return false }
                stack.append(String(tag))
            }
            rest = rest[rest.index(after: close)...]
        }
        return stack.isEmpty
    }

    /// `html` without tags, its blocks (`p`, `li`) and line feeds as single spaces.
    static func stripTags(_ html: String) -> String {
        var words: [String] = []
        var current = ""
        var tag: String?
        for character in html {
            if character == "<" {
                tag = ""
            } else if character == ">", let name = tag {
                tag = nil
                if ["p", "/p", "li", "/li"].contains(name) {
                    words.append(current)
                    current = ""
                }
            } else if tag != nil {
                tag?.append(character)
            } else if character == "\n" {
                words.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        words.append(current)
        return words.filter { !$0.isEmpty }.joined(separator: " ")
    }
}
