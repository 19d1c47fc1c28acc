/// Finds the phrases of a ``CopyLexicon`` list in a text.
///
/// Built per lint run: `Regex` is not `Sendable`. Two things keep a lint run fast (BENCHMARKS.md, "Admin writes"):
/// each fragment's *required literal* — a run of plain characters every match of it contains — is checked first, on
/// the lowercased UTF-8 bytes of the text, and the regular expression runs only when one of them occurs; and the
/// expression is compiled on its first run, so a list none of whose literals occurs in a policy is never compiled.
/// A list with a fragment that has no required literal (or a text whose bytes cannot be compared that way) always
/// runs the expression.
package final class PhraseMatcher {
    private let source: String?
    private var compiled: Regex<AnyRegexOutput>?
    /// One of these (lowercased UTF-8) occurs in every text the expression matches; nil: no such set is known.
    private let literals: [[UInt8]]?

    /// Prepares `fragments`; Latin-script fragments only match whole words, CJK fragments match anywhere.
    package init(_ fragments: [String], wholeWords: Bool) {
        guard !fragments.isEmpty else {
            source = nil
            literals = []
            return
        }
        let alternation = fragments.joined(separator: "|")
        // Letters or digits on either side mean we are inside a longer word ("allowance", "freedom").
        source =
            wholeWords
            ? "(?i)(?:^|[^\\p{L}\\p{N}])(" + alternation + ")(?=$|[^\\p{L}\\p{N}])"
            : "(?i)(" + alternation + ")"
        literals = Self.requiredLiterals(fragments)
    }

    /// The first matching phrase in `text` as written there, or nil.
    package func firstMatch(in text: String) -> String? {
        firstMatch(in: text, prepared: Prepared(text))
    }

    /// ``firstMatch(in:)`` with the prefilter's form of `text` (or of a text containing it: the prefilter only
    /// rules matches out) computed by the caller, once for every list a text is checked against.
    package func firstMatch(in text: String, prepared: Prepared) -> String? {
        guard mayMatch(prepared) else { return nil }
        return expressionMatch(in: text)
    }

    /// ``firstMatch(in:)`` without the prefilter: the expression alone (tests compare the two).
    package func expressionMatch(in text: String) -> String? {
        guard source != nil else { return nil }
        let regex = self.regex()
        guard let match = text.firstMatch(of: regex) else { return nil }
        if match.count > 1, let captured = match[1].substring { return String(captured) }
        return String(match.0)
    }

    /// Whether any phrase occurs in `text`.
    package func matches(_ text: String) -> Bool { firstMatch(in: text) != nil }

    /// Compiles the expression now (a test checks every list of the lexicon compiles).
    package func compile() { if source != nil { _ = regex() } }

    private func regex() -> Regex<AnyRegexOutput> {
        if let compiled { return compiled }
        guard let source else { preconditionFailure("no expression to compile") }
        do {
            let regex = try Regex(source)
            compiled = regex
            return regex
        } catch {
            preconditionFailure("invalid lexicon pattern \(source): \(error)")
        }
    }

    // MARK: The literal prefilter

    /// False only when no match is possible: none of the required literals occurs in the lowercased text.
    ///
    /// `(?i)` compares characters by their lowercase forms, and `String` equality is canonical equivalence. Bytes
    /// agree with both only when no character of the text has another canonically equivalent spelling: a text with
    /// a combining mark, Hangul jamo or a CJK compatibility ideograph is always handed to the expression.
    package func mayMatch(_ text: String) -> Bool { mayMatch(Prepared(text)) }

    /// ``mayMatch(_:)`` of a prepared text.
    package func mayMatch(_ prepared: Prepared) -> Bool {
        guard let literals else { return true }
        guard !literals.isEmpty else { return false }
        guard let bytes = prepared.lowercasedBytes else { return true }
        return literals.contains { Self.bytes(bytes, contain: $0) }
    }

    /// What the prefilter compares: the lowercased UTF-8 bytes of a text, or nil when the text has a character
    /// with another canonically equivalent spelling (then the expression always runs). Lowercasing is the costly
    /// part, so a text checked against many lists is prepared once.
    package struct Prepared {
        /// The lowercased text's UTF-8 bytes; nil: compare with the expression.
        package let lowercasedBytes: [UInt8]?

        /// `text` prepared.
        package init(_ text: String) {
            lowercasedBytes = PhraseMatcher.hasEquivalentSpellings(text) ? nil : Array(text.lowercased().utf8)
        }
    }

    private static func bytes(_ haystack: [UInt8], contain needle: [UInt8]) -> Bool {
        guard let first = needle.first, needle.count <= haystack.count else { return needle.isEmpty }
        var start = 0
        let last = haystack.count - needle.count
        while start <= last {
            if haystack[start] == first {
                var offset = 1
                while offset < needle.count, haystack[start + offset] == needle[offset] { offset += 1 }
                if offset == needle.count { return true }
            }
            start += 1
        }
        return false
    }

    /// Whether `text` holds a scalar that has a canonically equivalent spelling with other scalars.
    static func hasEquivalentSpellings(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            if scalar.value < 0x300 { return false }
            return scalar.properties.canonicalCombiningClass != .notReordered
                || (0x1100...0x11FF).contains(scalar.value) || (0xA960...0xA97F).contains(scalar.value)
                || (0xD7B0...0xD7FF).contains(scalar.value) || (0xF900...0xFAFF).contains(scalar.value)
                || (0x2F800...0x2FA1F).contains(scalar.value)
        }
    }

    /// For each fragment, a set of plain-character runs one of which every match contains, lowercased; nil when
    /// some fragment has none (or only runs with equivalent spellings).
    static func requiredLiterals(_ fragments: [String]) -> [[UInt8]]? {
        var literals: [[UInt8]] = []
        for fragment in fragments {
            guard let set = requiredSet(alternation: Array(fragment)) else { return nil }
            for run in set {
                guard !hasEquivalentSpellings(run) else { return nil }
                let bytes = Array(run.lowercased().utf8)
                if !literals.contains(bytes) { literals.append(bytes) }
            }
        }
        return literals
    }

    /// `a|b(c|d)`: one required set per alternative, united; nil when an alternative has none.
    private static func requiredSet(alternation pattern: [Character]) -> [String]? {
        var union: [String] = []
        for alternative in topLevelAlternatives(pattern) {
            guard let set = requiredSet(sequence: alternative) else { return nil }
            union += set
        }
        return union.isEmpty ? nil : union
    }

    /// The best of a sequence's candidates: each run of literal characters outside groups, classes and escapes
    /// that no quantifier makes optional or repeatable (a set of one), and each group no quantifier makes optional
    /// (its alternatives' sets united). Best: the longest shortest member.
    private static func requiredSet(sequence pattern: [Character]) -> [String]? {
        var candidates: [[String]] = []
        var run = ""
        var lastWasLiteral = false
        func endRun() {
            if !run.isEmpty { candidates.append([run]) }
            run = ""
        }
        var index = 0
        while index < pattern.count {
            let character = pattern[index]
            switch character {
            case "\\":
                // \w, \d, \. …: not kept (conservative: a run only needs to be required, not complete).
                endRun()
                index += 2
                lastWasLiteral = false
                continue
            case "(", "[":
                endRun()
                let end = skipGroupOrClass(pattern, from: index)
                let next = end < pattern.count ? pattern[end] : nil
                let optional = next == "?" || next == "*" || next == "{"
                if character == "(", !optional, end - 1 > index + 1 {
                    var inner = Array(pattern[(index + 1)..<(end - 1)])
                    if inner.first == "?" {
                        // (?:…) is a plain group; lookarounds and other constructs are not used as candidates.
                        inner = inner.count > 1 && inner[1] == ":" ? Array(inner.dropFirst(2)) : []
                    }
                    if !inner.isEmpty, let set = requiredSet(alternation: inner) { candidates.append(set) }
                }
                index = end
                lastWasLiteral = false
                continue
            case "?", "*", "{":
                // The previous character may be absent: it leaves the run, which ends here.
                if lastWasLiteral, !run.isEmpty { run.removeLast() }
                endRun()
                if character == "{" {
                    while index < pattern.count, pattern[index] != "}" { index += 1 }
                }
                lastWasLiteral = false
            case "+", ".", "^", "$", ")", "]", "|":
                endRun()
                lastWasLiteral = false
            default:
                run.append(character)
                lastWasLiteral = true
            }
            index += 1
        }
        endRun()
        func score(_ set: [String]) -> Int { set.map(\.utf8.count).min() ?? 0 }
        return candidates.max { score($0) < score($1) }
    }

    /// `a|b(c|d)` → `a`, `b(c|d)`: splits at `|` outside groups and classes.
    private static func topLevelAlternatives(_ pattern: [Character]) -> [[Character]] {
        var alternatives: [[Character]] = [[]]
        var depth = 0
        var inClass = false
        var index = 0
        while index < pattern.count {
            let character = pattern[index]
            if character == "\\", index + 1 < pattern.count {
                alternatives[alternatives.count - 1] += [character, pattern[index + 1]]
                index += 2
                continue
            }
            if inClass {
                if character == "]" { inClass = false }
            } else if character == "[" {
                inClass = true
            } else if character == "(" {
                depth += 1
            } else if character == ")" {
                depth -= 1
            } else if character == "|" && depth == 0 {
                alternatives.append([])
                index += 1
                continue
            }
            alternatives[alternatives.count - 1].append(character)
            index += 1
        }
        return alternatives
    }

    /// The index after the group or class that starts at `start` (nesting and escapes followed).
    private static func skipGroupOrClass(_ pattern: [Character], from start: Int) -> Int {
        var index = start
        var depth = 0
        var inClass = false
        while index < pattern.count {
            let character = pattern[index]
            if character == "\\" {
                index += 2
                continue
            }
            if inClass {
                if character == "]" {
                    inClass = false
                    if depth == 0 { return index + 1 }
                }
            } else if character == "[" {
                inClass = true
            } else if character == "(" {
                depth += 1
            } else if character == ")" {
                depth -= 1
                if depth == 0 { return index + 1 }
            }
            index += 1
        }
        return index
    }
}
