/// The texts given for one locale; any subset of the screens and fields, each a template with `{placeholders}`.
public struct CopySet: Sendable, Hashable {
    /// The texts by key.
    public var texts: [CopyKey: String]

    /// A copy set holding `texts`.
    public init(_ texts: [CopyKey: String] = [:]) { self.texts = texts }

    /// The text for `field` of `screen`.
    public subscript(screen: CopyScreen, field: CopyField) -> String? {
        get { texts[CopyKey(screen, field)] }
        set { texts[CopyKey(screen, field)] = newValue }
    }

    /// Whether no text is given.
    public var isEmpty: Bool { texts.isEmpty }

    /// This set with `other`'s texts replacing or adding to ours.
    public func merging(_ other: CopySet) -> CopySet {
        CopySet(texts.merging(other.texts) { _, new in new })
    }
}
