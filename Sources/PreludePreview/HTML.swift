import PreludeCore

/// HTML text building: lint words highlighted with `<mark>` (escaping is ``HTMLEscaping`` in the core).
package enum HTML {
    /// The words a finding quotes (`"Allow"` in `… suggests granting on our screen ("Allow")`) that occur in
    /// `text`, ignoring case: the offending words. Quotes of one character (a full stop) are not words; of two
    /// overlapping quotes (the whole label and the word in it) the shorter is kept.
    package static func offendingWords(in text: String, findings: [LintFinding]) -> [String] {
        var quoted: [String] = []
        for finding in findings {
            let parts = finding.message.split(separator: "\"", omittingEmptySubsequences: false)
            // Odd-numbered parts sit between quotes.
            for index in stride(from: 1, to: parts.count - 1, by: 2) {
                let word = String(parts[index])
                if word.count >= 2, !ranges(of: word, in: Array(text)).isEmpty, !quoted.contains(word) {
                    quoted.append(word)
                }
            }
        }
        return quoted.filter { word in
            !quoted.contains { other in other != word && other.count < word.count && contains(word, other) }
        }
    }

    /// `text` escaped, with every occurrence of `words` (ignoring case) wrapped in `<mark>`.
    package static func highlight(_ text: String, words: [String]) -> String {
        guard !words.isEmpty else { return HTMLEscaping.escape(text) }
        let characters = Array(text)
        var marked = [Bool](repeating: false, count: characters.count)
        for word in words {
            for range in ranges(of: word, in: characters) {
                for index in range { marked[index] = true }
            }
        }
        // Escaped run by run (escaping works character by character, so the bytes are the same as escaping each).
        var result = ""
        var run = ""
        var open = false
        for (index, character) in characters.enumerated() {
            if marked[index] != open {
                result += HTMLEscaping.escape(run)
                run = ""
                result += marked[index] ? "<mark>" : "</mark>"
                open = marked[index]
            }
            run.append(character)
        }
        result += HTMLEscaping.escape(run)
        if open { result += "</mark>" }
        return result
    }

    private static func contains(_ text: String, _ word: String) -> Bool {
        !ranges(of: word, in: Array(text)).isEmpty
    }

    /// The ranges of `word` in `characters`, compared character by character in lower case.
    private static func ranges(of word: String, in characters: [Character]) -> [Range<Int>] {
        let needle = word.map { $0.lowercased() }
        guard !needle.isEmpty, needle.count <= characters.count else { return [] }
        var result: [Range<Int>] = []
        var start = 0
        while start + needle.count <= characters.count {
            var matches = true
            for offset in 0..<needle.count where characters[start + offset].lowercased() != needle[offset] {
                matches = false
                break
            }
            if matches {
                result.append(start..<(start + needle.count))
                start += needle.count
            } else {
                start += 1
            }
        }
        return result
    }
}
