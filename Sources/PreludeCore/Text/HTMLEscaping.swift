/// Escaping for text placed in HTML element content and in quoted attribute values: the one implementation
/// shared by the policy preview and the results page.
package enum HTMLEscaping {
    /// `text` with `& < > " '` escaped.
    package static func escape(_ text: String) -> String {
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
