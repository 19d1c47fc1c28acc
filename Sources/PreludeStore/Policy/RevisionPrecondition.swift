/// What a write requires of an app's live revision before it changes it: the store's form of an `If-Match`
/// condition, with entity tags as the bytes of their opaque tags (no HTTP type, no header syntax; the HTTP adapter
/// parses the header, `RevisionPrecondition(ifMatch:)` in the service).
package enum RevisionPrecondition: Sendable, Hashable {
    /// `*`: any current revision. The only condition that admits replacing an app whose live revision cannot be
    /// served (it has no current representation to name).
    case anyRevision
    /// The live revision must be tagged with one of these strong opaque tags (bytes, no quotes). Empty admits
    /// nothing (an `If-Match` naming only weak tags or malformed elements).
    case oneOf([[UInt8]])

    /// Whether a live revision whose representations carry `tags` (opaque, no quotes) satisfies this condition;
    /// nil `tags` stands for an app with no current representation.
    package func admits(_ tags: [[UInt8]]?) -> Bool {
        switch self {
        case .anyRevision: return true
        case .oneOf(let wanted):
            guard let tags else { return false }
            return wanted.contains { tags.contains($0) }
        }
    }
}
