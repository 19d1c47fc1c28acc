import PreludeCore

/// The Markdown subset of `NSUserTrackingMarkdownUsageDescription` (``MarkdownSubset``: bold, italic, bullet lists,
/// paragraph breaks) rendered as HTML, for the preview's drawing of the full-page tracking request.
///
/// Pure and total: every character of the input reaches the output through ``HTMLEscaping/escape(_:)``; the only
/// markup is the renderer's own `<p>`, `<ul>`, `<li>`, `<strong>` and `<em>`, always balanced. Anything outside the
/// subset (headings, links, numbered lists, HTML — what lint PS-11 reports) is drawn as the literal text it is.
///
/// The rules, after CommonMark's where the subset needs them:
/// - Blocks: lines are split at line breaks (line feed, carriage return, both, or another Unicode newline); a blank
///   line ends a paragraph or a list; a line starting with `- `, `* `, `+ ` or `• ` (after leading spaces) is a
///   bullet item, consecutive items form one list — indented items join it (the subset has one level of list);
///   other lines form paragraphs, consecutive lines of one paragraph joined by a line feed (a soft break, drawn as
///   a space).
/// - Emphasis: `**…**` or `__…__` is bold, `*…*` or `_…_` italic, one inside the other at most (two levels). An
///   opener is followed by a non-space and a closer preceded by one; `_` opens only after a non-alphanumeric and
///   closes only before one (`snake_case` stays as written). A delimiter with no closer is literal, and so is every
///   later one of its kind in the same text: each character is looked at a bounded number of times (the input is
///   scanned once per level), so a long hostile input costs time linear in its length.
package enum MarkdownHTML {
    /// The deepest nesting of emphasis: bold inside italic, or italic inside bold.
    static let maximumDepth = 2

    /// `markdown` as HTML: paragraphs and lists, emphasis inside them.
    package static func render(_ markdown: String) -> String {
        var html = ""
        var paragraph: [String] = []
        var items: [String] = []
        func flushParagraph() {
            guard !paragraph.isEmpty else { return }
            html += "<p>"
            inline(Array(paragraph.joined(separator: "\n")), into: &html)
            html += "</p>"
            paragraph = []
        }
        func flushList() {
            guard !items.isEmpty else { return }
            html += "<ul>"
            for item in items {
                html += "<li>"
                inline(Array(item), into: &html)
                html += "</li>"
            }
            html += "</ul>"
            items = []
        }
        // `\r\n` is one Character in Swift: splitting at every newline character handles it, and a lone `\r`.
        for line in markdown.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.allSatisfy({ $0 == " " || $0 == "\t" }) {
                flushParagraph()
                flushList()
            } else if let item = bulletItem(trimmed) {
                flushParagraph()
                items.append(item)
            } else {
                flushList()
                paragraph.append(String(trimmed))
            }
        }
        flushParagraph()
        flushList()
        return html
    }

    /// The text of a bullet item, when `line` (without its leading spaces) is one.
    private static func bulletItem(_ line: Substring) -> String? {
        for bullet in ["- ", "* ", "+ ", "• "] where line.hasPrefix(bullet) {
            return String(line.dropFirst(bullet.count).drop { $0 == " " })
        }
        return nil
    }

    // MARK: Emphasis

    /// Renders `text` with its emphasis, escaping everything else.
    private static func inline(_ text: [Character], into html: inout String) {
        inline(text[...], depth: 0, into: &html)
    }

    private static func inline(_ text: ArraySlice<Character>, depth: Int, into html: inout String) {
        var literal = ""
        // Delimiters found to have no closer in this text: literal from then on (linear time on hostile input).
        var unmatched: Set<String> = []
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            guard depth < maximumDepth, character == "*" || character == "_" else {
                literal.append(character)
                index += 1
                continue
            }
            let double = index + 1 < text.endIndex && text[index + 1] == character
            let width = double ? 2 : 1
            let delimiter = String(repeating: character, count: width)
            if !unmatched.contains(delimiter), opens(text, at: index, width: width),
                let close = closer(of: character, width: width, in: text, after: index + width)
            {
                html += HTMLEscaping.escape(literal)
                literal = ""
                let tag = double ? "strong" : "em"
                html += "<\(tag)>"
                inline(text[(index + width)..<close], depth: depth + 1, into: &html)
                html += "</\(tag)>"
                index = close + width
            } else {
                if !unmatched.contains(delimiter), opens(text, at: index, width: width) { unmatched.insert(delimiter) }
                literal += delimiter
                index += width
            }
        }
        html += HTMLEscaping.escape(literal)
    }

    /// Whether the delimiter run of `width` at `index` can open emphasis: a non-space follows it, and `_` does not
    /// stand inside a word.
    private static func opens(_ text: ArraySlice<Character>, at index: Int, width: Int) -> Bool {
        let after = index + width
        guard after < text.endIndex, !text[after].isWhitespace else { return false }
        if text[index] == "_", index > text.startIndex, isWordCharacter(text[index - 1]) { return false }
        return true
    }

    /// The index of the run closing an opener of `width` `character`s, searching from `start`: a run of exactly that
    /// width (a double run is skipped whole when looking for a single closer) after a non-space, with content before
    /// it; `_` closes only before a non-word character.
    private static func closer(
        of character: Character, width: Int, in text: ArraySlice<Character>, after start: Int
    ) -> Int? {
        var index = start
        while index < text.endIndex {
            guard text[index] == character else {
                index += 1
                continue
            }
            let double = index + 1 < text.endIndex && text[index + 1] == character
            let runWidth = double ? 2 : 1
            let before = text[index - 1]
            let afterIndex = index + runWidth
            if runWidth == width, index > start, !before.isWhitespace,
                character != "_" || afterIndex >= text.endIndex || !isWordCharacter(text[afterIndex])
            {
                return index
            }
            index += runWidth
        }
        return nil
    }

    private static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber
    }
}
