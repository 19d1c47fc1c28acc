/// One text of a previewed screen: the words a device shows, where in the document they come from, and the lint
/// findings about them.
public struct PreviewText: Sendable, Hashable {
    /// The field of the screen.
    public var field: CopyField
    /// The resolved text (locale fallback applied, placeholders filled), exactly as the engine returns it.
    public var text: String
    /// The document value the text comes from (`/features/camera/copy/fr/prime/title`); nil only if the
    /// resolver found a text no layer explains, which would be a bug.
    public var source: JSONPointer?
    /// The lint findings whose pointer is `source`.
    public var findings: [LintFinding]

    /// A text with the given parts.
    public init(field: CopyField, text: String, source: JSONPointer?, findings: [LintFinding] = []) {
        self.field = field
        self.text = text
        self.source = source
        self.findings = findings
    }
}
