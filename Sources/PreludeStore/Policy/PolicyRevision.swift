import PreludeCore
import Synchronization

/// One app's live revision as the store knows it: the domain half of what is served (the service's
/// `ServedPolicy` adds the HTTP half: prepared bodies and the caches of what clients asked).
///
/// Immutable, built once when the revision goes live (published here, or loaded from the database). A revision loaded
/// from the database keeps its canonical bytes and what the hot path reads (``keyShape``, ``entityTag``); its decoded
/// ``document`` is made from those bytes on first use and then kept (an idle app costs its bytes, not a decoded copy
/// of them; docs/operations.md, "Memory").
package struct PolicyRevision: Sendable {
    /// Why an app in the database cannot be served by this build.
    package struct Unservable: Error, Sendable, Equatable {
        /// The live revision number, nil when the app has none.
        package let revision: Int?
        /// What is wrong, for logs and the 503 problem.
        package let reason: String

        /// A reason `reason` about revision `revision`.
        package init(revision: Int?, reason: String) {
            self.revision = revision
            self.reason = reason
        }
    }

    /// The app's id.
    package let appID: String
    /// The environment whose live revision this is.
    package let environment: String
    /// The revision number (1, 2, ...).
    package let number: Int
    /// The decoded, valid document: the one written, or decoded from ``canonicalBytes`` on first use (then kept).
    package var document: PolicyDocument { decoded.document(canonical: canonicalBytes) }
    /// Whether ``document`` is in memory (a revision loaded at start-up has only its bytes until first use).
    package var isDocumentDecoded: Bool { decoded.isDecoded }
    private let decoded: DecodedDocument
    /// The canonical JSON bytes of `document` (compact, members in documented order), as stored.
    package let canonicalBytes: [UInt8]
    /// The bytes clients fetch (`GET /v1/apps/{app}/policy/document`): ``PreludeCore/PolicyDocument/clientJSONValue``
    /// serialized, which leaves out the members only the server's analysis reads; ``canonicalBytes`` itself when
    /// the document names none. Computed on each call (the document route prepares its response from it once).
    package var clientBytes: [UInt8] { Self.clientBytes(of: document, canonical: canonicalBytes) }
    /// Which client inputs can change a resolved policy of this document (a resolution key keeps only those).
    package let keyShape: ResolutionKeyShape
    /// The revision's entity tag, opaque (no quotes; ``RevisionTag``).
    package let entityTag: String
    /// When the revision was created (milliseconds since the Unix epoch).
    package let createdAt: Int64
    /// Who created the revision (a token name, or `system`).
    package let author: String
    /// The revision's message, if any.
    package let message: String?
    /// The rules of this build the stored revision does not meet (``PreludeCore/StoredPolicyReader``); empty for a
    /// revision this build wrote or that validates as written.
    package let storedFindings: [ValidationProblem]
    /// Where the served document has a ``PreludeCore/CopyFallback`` text the stored revision lacks.
    package let fallbacks: [JSONPointer]

    /// A revision of `document` whose canonical bytes are `canonical` (computed by the caller, outside any lock).
    ///
    /// - Parameters:
    ///   - keepsDocument: whether `document` stays in memory (a revision just written, about to be used) or is
    ///     decoded again from `canonical` on first use (a revision loaded at start-up, maybe never asked for).
    ///   - entityTag: `RevisionTag.make(revision: number, canonical: canonical)` when the caller already computed it
    ///     (start-up's check of a stamped row hashes the bytes once); computed here when nil.
    package init(
        appID: String, environment: String = EnvironmentName.production, number: Int, document: PolicyDocument,
        canonical: [UInt8], entityTag: String? = nil, keepsDocument: Bool = true, createdAt: Int64, author: String,
        message: String?,
        storedFindings: [ValidationProblem] = [],
        fallbacks: [JSONPointer] = []
    ) {
        self.appID = appID
        self.environment = environment
        self.number = number
        decoded = DecodedDocument(keepsDocument ? document : nil)
        canonicalBytes = canonical
        keyShape = ResolutionKeyShape(document)
        self.entityTag = entityTag ?? RevisionTag.make(revision: number, canonical: canonical)
        self.createdAt = createdAt
        self.author = author
        self.message = message
        self.storedFindings = storedFindings
        self.fallbacks = fallbacks
    }

    /// The bytes clients fetch of `document` whose canonical bytes are `canonical` (shared when they are the same).
    package static func clientBytes(of document: PolicyDocument, canonical: [UInt8]) -> [UInt8] {
        document.hasServerOnlyMembers ? document.clientJSONValue.serializedBytes() : canonical
    }

    /// Decodes a live row: the revision, or why this build cannot serve it (no live revision, a document
    /// ``PreludeCore/StoredPolicyReader`` refuses, or one for another app).
    ///
    /// A revision this build's rules accepted is not validated again (``acceptedByTheseRules(_:revision:)``);
    /// every other one is read by ``PreludeCore/StoredPolicyReader/read(text:)``, its findings and fallback texts
    /// kept.
    package static func decode(_ row: PolicyRepository.LiveRow) -> Result<PolicyRevision, Unservable> {
        guard let revision = row.revision, let text = row.document else {
            return .failure(
                Unservable(
                    revision: nil,
                    reason: row.environment == EnvironmentName.production
                        ? "the app has no live revision"
                        : "environment \"\(row.environment)\" has no live revision"))
        }
        if let accepted = acceptedByTheseRules(row, revision: revision) { return .success(accepted) }
        let reading = StoredPolicyReader.read(text: text)
        guard let document = reading.document else {
            return .failure(
                Unservable(
                    revision: revision, reason: "revision \(revision) cannot be served: \(reading.refusal ?? "")"))
        }
        guard document.app.id == row.app else {
            return .failure(
                Unservable(
                    revision: revision,
                    reason: "revision \(revision) is for app \"\(document.app.id)\", not \"\(row.app)\""))
        }
        return .success(
            PolicyRevision(
                appID: row.app, environment: row.environment, number: revision, document: document,
                canonical: document.jsonValue.serializedBytes(), keepsDocument: false,
                createdAt: row.createdAt, author: row.author, message: row.message, storedFindings: reading.findings,
                fallbacks: reading.fallbacks))
    }
}

extension PolicyRevision {
    /// The revision of `row` read without validation, when its record says this build's rules accepted it: it was
    /// stamped with ``PreludeCore/PolicyValidator/rulesVersion`` when written (after validating with no findings),
    /// and its stored text is still the text accepted (the stored entity tag, a hash and length of those bytes,
    /// matches them). Then the stored text is the canonical bytes, and start-up only parses and decodes it (for the
    /// key shape, and to refuse a row that no longer decodes). nil otherwise: no stamp (written before migration
    /// 0015, a replica's copy), another rules version, changed bytes, bytes that do not decode, or another app's
    /// document; the caller validates it then (docs/storage.md, "Start-up").
    static func acceptedByTheseRules(_ row: PolicyRepository.LiveRow, revision: Int) -> PolicyRevision? {
        guard row.rulesVersion == PolicyValidator.rulesVersion, let text = row.document else { return nil }
        let bytes = Array(text.utf8)
        let tag = RevisionTag.make(revision: revision, canonical: bytes)
        guard row.etag == "\"" + tag + "\"",
            let document = StoredPolicyReader.readAccepted(bytes: bytes), document.app.id == row.app
        else { return nil }
        return PolicyRevision(
            appID: row.app, environment: row.environment, number: revision, document: document, canonical: bytes,
            entityTag: tag, keepsDocument: false, createdAt: row.createdAt, author: row.author, message: row.message)
    }
}

/// A revision's decoded document, made from its canonical bytes on first use and kept (``PolicyRevision/document``).
private final class DecodedDocument: Sendable {
    private let cell: Mutex<PolicyDocument?>

    init(_ document: PolicyDocument?) { cell = Mutex(document) }

    var isDecoded: Bool { cell.withLock { $0 != nil } }

    /// The document, decoding `canonical` the first time; two first callers racing both decode and the first stored
    /// wins (the same document).
    func document(canonical: [UInt8]) -> PolicyDocument {
        if let document = cell.withLock({ $0 }) { return document }
        let made = Self.decode(canonical)
        return cell.withLock { stored in
            if let stored { return stored }
            stored = made
            return made
        }
    }

    /// `canonical` decoded: the bytes this build serialized from a document that decoded and validated, or stored
    /// bytes this build's rules accepted that decoded at start-up (``PolicyRevision/acceptedByTheseRules(_:revision:)``),
    /// so they decode to that document (`PolicyStoreTests` and `UpgradeFixtureTests` hold the round trip for the demo
    /// policy, many apps and every upgrade fixture).
    private static func decode(_ canonical: [UInt8]) -> PolicyDocument {
        guard let json = try? JSONValue(parsing: canonical) else {
            fatalError("a revision's canonical bytes, serialized by this build, do not parse as JSON")
        }
        return PolicyDocument.decode(json).document
    }
}
