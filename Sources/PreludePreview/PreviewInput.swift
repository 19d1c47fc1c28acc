import PreludeCore

/// A policy document to preview, with what the page says about where it comes from.
package struct PreviewInput: Sendable {
    /// The document.
    package var document: PolicyDocument
    /// Where it comes from, for people: `revision 7 (live)`, `proposed`, a file name.
    package var origin: String
    /// The revision number when the document is a stored revision.
    package var revision: Int?
    /// The SHA-256 (hex) of the document's canonical JSON (`document.jsonValue.serializedBytes()`), computed by
    /// the caller (PreludeCore and this module have no hashing).
    package var sha256: String
    /// The screens to draw, from ``PreviewCatalogue/screens(of:findings:)``.
    package var screens: [PreviewScreen]
    /// Every lint finding of the document.
    package var findings: [LintFinding]

    /// An input for `document`; its screens and findings are computed here.
    package init(document: PolicyDocument, origin: String, revision: Int? = nil, sha256: String) {
        self.document = document
        self.origin = origin
        self.revision = revision
        self.sha256 = sha256
        findings = CopyLinter.lint(document)
        screens = PreviewCatalogue.screens(of: document, findings: findings)
    }
}
