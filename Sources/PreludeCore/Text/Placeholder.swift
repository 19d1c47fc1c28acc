/// `{name}` placeholders in copy, such as `{appName}`.
///
/// Syntax: `{` name `}` where name is an ASCII letter or `_` followed by ASCII letters, digits or `_`.
/// `{{` stands for a literal `{` and `}}` for a literal `}` (as in Python's `str.format`). Anything else —
/// a lone brace, `{ appName }`, `{1}` — is ordinary text and is left exactly as written.
public enum Placeholder {
    /// The placeholder names in a template, each once, in order of first appearance.
    public static func names(in template: String) -> [String] {
        var names: [String] = []
        scan(template) { piece in
            if case .placeholder(let name) = piece, !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// ``names(in:)`` and ``hasUnpairedBraces(_:)`` of `template` from one scan (validation asks both of every
    /// text).
    public static func inspect(_ template: String) -> (names: [String], hasUnpairedBraces: Bool) {
        var names: [String] = []
        var unpaired = false
        scan(template, onUnpaired: { unpaired = true }) { piece in
            if case .placeholder(let name) = piece, !names.contains(name) { names.append(name) }
        }
        return (names, unpaired)
    }

    /// The template with each known placeholder replaced by its value and `{{` / `}}` unescaped;
    /// placeholders without a value are left as written (`{unknown}`).
    ///
    /// Values are inserted verbatim: braces inside a value are not interpreted.
    public static func fill(_ template: String, values: [String: String]) -> String {
        var output = ""
        output.reserveCapacity(template.utf8.count)
        scan(template) { piece in
            switch piece {
            case .text(let text): output += text
            case .placeholder(let name): output += values[name] ?? "{" + name + "}"
            }
        }
        return output
    }

    /// Whether a template contains an unpaired brace (a lone `{` or `}` that is neither an escape nor part of
    /// a placeholder); validation uses it to flag likely typos such as `{appName` or `{app name}`.
    public static func hasUnpairedBraces(_ template: String) -> Bool {
        var unpaired = false
        scan(template, onUnpaired: { unpaired = true }) { _ in }
        return unpaired
    }

    private enum Piece {
        case text(Substring)
        case placeholder(String)
    }

    private static func scan(_ template: String, onUnpaired: () -> Void = {}, _ emit: (Piece) -> Void) {
        let bytes = template.utf8
        // Most copy has no brace at all: one pass over the bytes finds that, and the template is one piece of text.
        guard bytes.contains(where: { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "}") }) else {
            if !template.isEmpty { emit(.text(template[...])) }
            return
        }
        var textStart = bytes.startIndex
        var index = bytes.startIndex
        // Braces are ASCII, so working on UTF-8 indices never splits a character.
        func flush(upTo end: String.Index) {
            if textStart < end { emit(.text(template[textStart..<end])) }
        }
        while index < bytes.endIndex {
            let byte = bytes[index]
            let next = bytes.index(after: index)
            if byte == UInt8(ascii: "{") {
                if next < bytes.endIndex, bytes[next] == UInt8(ascii: "{") {
                    flush(upTo: next)  // keep one "{"
                    index = bytes.index(after: next)
                    textStart = index
                    continue
                }
                if let close = nameEnd(in: bytes, from: next) {
                    flush(upTo: index)
                    emit(.placeholder(String(template[next..<close])))
                    index = bytes.index(after: close)
                    textStart = index
                    continue
                }
                onUnpaired()
            } else if byte == UInt8(ascii: "}") {
                if next < bytes.endIndex, bytes[next] == UInt8(ascii: "}") {
                    flush(upTo: next)  // keep one "}"
                    index = bytes.index(after: next)
                    textStart = index
                    continue
                }
                onUnpaired()
            }
            index = next
        }
        flush(upTo: bytes.endIndex)
    }

    /// The index of the `}` closing a valid name starting at `start`, or `nil`.
    private static func nameEnd(in bytes: String.UTF8View, from start: String.Index) -> String.Index? {
        var index = start
        while index < bytes.endIndex {
            let byte = bytes[index]
            let letter = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || byte == UInt8(ascii: "_")
            let digit = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            if byte == UInt8(ascii: "}") { return index == start ? nil : index }
            guard letter || (digit && index != start) else { return nil }
            index = bytes.index(after: index)
        }
        return nil
    }
}
