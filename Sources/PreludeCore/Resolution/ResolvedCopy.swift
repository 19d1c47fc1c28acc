/// The texts of one feature for one client: each looked up along the locale fallback chain, placeholders filled.
public struct ResolvedCopy: Sendable, Hashable {
    /// The texts by key; a key is absent when no locale on the chain has it.
    public var texts: [CopyKey: String]

    /// Resolved copy holding `texts`.
    public init(_ texts: [CopyKey: String] = [:]) { self.texts = texts }

    /// The text for `field` of `screen`.
    public subscript(screen: CopyScreen, field: CopyField) -> String? {
        texts[CopyKey(screen, field)]
    }

    /// `{screen: {field: text}}` in declared order.
    public var jsonValue: JSONValue { CopySet(texts).jsonValue }
}
