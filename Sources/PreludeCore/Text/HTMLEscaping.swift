/// Escaping for text placed in HTML element content and in quoted attribute values: the one implementation
/// shared by the policy preview and the results page.
package enum HTMLEscaping {
    /// `text` with `& < > " '` escaped.
    package static func escape(_ text: String) -> String {
        // Most texts have nothing to escape (a preview at the size limit escapes tens of thousands): return them as
        // they are, without building a copy character by character.
        guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }) else {
            return text
        }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}
