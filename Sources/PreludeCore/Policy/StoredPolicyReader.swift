/// Reads a revision an earlier build accepted: what this build serves for it, and what it no longer meets
/// (docs/policy.md, "Revisions written by earlier builds").
///
/// A revision accepted once is served by every later build. New validation rules apply to new writes; for a stored
/// revision they become findings:
/// - a text a later rule requires and the revision lacks is served from ``CopyFallback`` (a finding per text);
/// - the other rules added since a revision could have been written (``servableCodes``) are findings only.
///
/// A revision is refused (cannot be served) only when it is not a policy this build can read: not JSON, a
/// structural problem (a member of the wrong type, an unknown feature), a schema version other than this build's
/// (written by a newer build), or a semantic problem outside ``servableCodes`` (a corrupt row: no build accepts it).
public enum StoredPolicyReader {
    /// What a stored revision becomes in this build.
    public struct Reading: Sendable {
        /// The document served, fallbacks filled in; nil when the revision cannot be served.
        public let document: PolicyDocument?
        /// Every rule of this build the stored text does not meet (empty when it validates as written).
        public let findings: [ValidationProblem]
        /// Where a ``CopyFallback`` text was filled in, sorted.
        public let fallbacks: [JSONPointer]
        /// Why the revision cannot be served; nil when it is.
        public let refusal: String?

        /// Whether this build serves the stored text exactly as written.
        public var isServedAsWritten: Bool { document != nil && findings.isEmpty }
    }

    /// The semantic rules whose breach does not stop a stored revision from being served: each one was added
    /// after revisions were accepted without it, and the engine works without it (the texts through fallbacks).
    public static let servableCodes: Set<ValidationProblem.Code> = [
        .missingCopy, .forbiddenCharacter, .cadenceNotAllowed, .settingsNotAllowed, .emptyCopy, .unknownPlaceholder,
        .malformedPlaceholder, .strategyNeedsNewerOS, .unsupportedPartialAction,
    ]

    /// Reads the stored text of a revision.
    public static func read(text: String) -> Reading {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: Array(text.utf8))
        } catch {
            return refused("it is not JSON (\(error.description))", findings: [])
        }
        let written = PolicyValidator.validate(json)
        if let document = written.document {
            return Reading(document: document, findings: [], fallbacks: [], refusal: nil)
        }
        let (_, structural) = PolicyDocument.decode(json)
        if !structural.isEmpty {
            return refused("it does not decode as a policy of this build", findings: written.problems)
        }
        if let schema = written.problems.first(where: { $0.code == .unsupportedSchemaVersion }) {
            return refused(
                "it was written for another schema (\(schema.message)); run the build that wrote it",
                findings: written.problems)
        }
        if written.problems.contains(where: { !servableCodes.contains($0.code) }) {
            return refused("it breaks rules every build enforces (a damaged row)", findings: written.problems)
        }
        var patched = json
        let fallbacks = written.problems.filter { $0.code == .missingCopy }.map(\.pointer)
        for pointer in fallbacks {
            guard let key = copyKey(at: pointer) else { continue }
            patched = setting(.string(CopyFallback.text(key)), at: pointer.tokens[...], in: patched)
        }
        let (document, patchedStructural) = PolicyDocument.decode(patched)
        guard patchedStructural.isEmpty else {
            return refused("its fallback texts do not decode", findings: written.problems)
        }
        return Reading(document: document, findings: written.problems, fallbacks: fallbacks.sorted(), refusal: nil)
    }

    /// Reads a stored revision that this build's rules accepted, with no findings, when it was written: the
    /// revision records ``PolicyValidator/rulesVersion`` and its bytes are the ones accepted. Parsed and decoded, not
    /// validated again (the validator is most of a start-up's work). nil when the bytes do not parse or decode as a
    /// policy of this build's schema (a damaged row): then ``read(text:)`` says why it cannot be served.
    ///
    /// The caller decides that the record applies (docs/storage.md, "Start-up"); a revision written under another
    /// rules version, or without one, is read with ``read(text:)``.
    public static func readAccepted(bytes: [UInt8]) -> PolicyDocument? {
        guard let json = try? JSONValue(parsing: bytes) else { return nil }
        let (document, structural) = PolicyDocument.decode(json)
        return structural.isEmpty && document.schemaVersion == PolicySchema.currentVersion ? document : nil
    }

    private static func refused(_ reason: String, findings: [ValidationProblem]) -> Reading {
        let first = findings.prefix(3).map(\.description).joined(separator: "; ")
        let detail = findings.isEmpty ? "" : " (\(CountedNoun.text(findings.count, "problem")): \(first))"
        return Reading(document: nil, findings: findings, fallbacks: [], refusal: reason + detail)
    }

    /// The copy key a `…/copy/<locale>/<screen>/<field>` pointer names.
    private static func copyKey(at pointer: JSONPointer) -> CopyKey? {
        let tokens = pointer.tokens
        guard tokens.count >= 2, let screen = CopyScreen(rawValue: tokens[tokens.count - 2]),
            let field = CopyField(rawValue: tokens[tokens.count - 1])
        else { return nil }
        return CopyKey(screen, field)
    }

    /// `json` with `value` at `tokens`, creating missing objects on the way (arrays and other values are kept).
    private static func setting(_ value: JSONValue, at tokens: ArraySlice<String>, in json: JSONValue) -> JSONValue {
        guard let token = tokens.first else { return value }
        switch json {
        case .array(var elements):
            guard let index = Int(token), elements.indices.contains(index) else { return json }
            elements[index] = setting(value, at: tokens.dropFirst(), in: elements[index])
            return .array(elements)
        case .object(var object):
            object[token] = setting(value, at: tokens.dropFirst(), in: object[token] ?? .object(JSONObject()))
            return .object(object)
        default:
            return json
        }
    }
}
