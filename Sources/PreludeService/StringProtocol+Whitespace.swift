extension StringProtocol {
    /// The text without leading and trailing spaces and tabs: what `trimmingCharacters(in: .whitespaces)` removes
    /// (Unicode space separators and U+0009), without the full Foundation.
    package func trimmingWhitespace() -> String {
        func isWhitespace(_ character: Character) -> Bool {
            character.unicodeScalars.allSatisfy { $0 == "\t" || $0.properties.generalCategory == .spaceSeparator }
        }
        guard let first = firstIndex(where: { !isWhitespace($0) }) else { return "" }
        let last = lastIndex(where: { !isWhitespace($0) })!
        return String(self[first...last])
    }
}
