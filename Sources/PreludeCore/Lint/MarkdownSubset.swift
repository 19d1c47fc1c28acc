/// The Markdown subset `NSUserTrackingMarkdownUsageDescription` may use (iOS 27.2): bold and italic, bullet lists,
/// paragraph breaks — "it doesn't support underline"
/// (https://developer.apple.com/documentation/bundleresources/information-property-list/nsusertrackingmarkdownusagedescription).
/// Anything else (headings, links, images, code, quotes, numbered lists, tables, rules, HTML) is reported, and
/// ``plainText(_:)`` gives the words the sheet shows, for the wording checks every purpose string gets.
public enum MarkdownSubset {
    /// One construct outside the subset, with the text that shows it.
    public struct Violation: Sendable, Hashable {
        /// What it is ("a heading", "a link", ...).
        public let construct: String
        /// The line (trimmed) where it is.
        public let line: String
    }

    /// The constructs outside the subset, in text order (one per line at most).
    public static func violations(in text: String) -> [Violation] {
        var found: [Violation] = []
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let line = TextChecker.trim(String(rawLine))
            guard !line.isEmpty else { continue }
            if let construct = unsupported(line) { found.append(Violation(construct: construct, line: line)) }
        }
        return found
    }

    private static func unsupported(_ line: String) -> String? {
        if line.hasPrefix("#") { return "a heading" }
        if line.hasPrefix(">") { return "a block quote" }
        if line.hasPrefix("|") { return "a table" }
        if line.hasPrefix("```") || line.contains("`") { return "code" }
        if line == "---" || line == "***" || line == "___" { return "a horizontal rule" }
        if let first = line.first, first.isNumber, line.drop(while: \.isNumber).hasPrefix(". ") {
            return "a numbered list (only bullet lists are supported)"
        }
        if line.contains("![") { return "an image" }
        if line.contains("](") { return "a link" }
        if line.contains("<u>") || line.contains("</u>") { return "underline (not supported)" }
        if line.contains("<") && line.contains(">") { return "HTML" }
        return nil
    }

    /// The text without its Markdown: bullets and emphasis markers removed, lines joined by spaces.
    public static func plainText(_ text: String) -> String {
        var lines: [String] = []
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: true) {
            var line = TextChecker.trim(String(rawLine))
            for bullet in ["- ", "* ", "+ ", "• "] where line.hasPrefix(bullet) {
                line = String(line.dropFirst(bullet.count))
                break
            }
            line = line.replacingAll("**", with: "").replacingAll("__", with: "")
            line = String(line.filter { $0 != "*" && $0 != "_" })
            if !line.isEmpty { lines.append(line) }
        }
        return lines.joined(separator: " ")
    }
}

extension String {
    /// This text with every occurrence of `target` replaced (the standard library has no such method without
    /// Foundation).
    fileprivate func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        result += rest
        return result
    }
}
