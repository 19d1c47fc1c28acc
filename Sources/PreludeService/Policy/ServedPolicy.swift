import PreludeCore
import PreludeHTTP
import PreludeStore
import Synchronization

/// One app's live revision as served: the store's ``PreludeStore/PolicyRevision`` (document, canonical bytes, key
/// shape, tag) plus what serving it over HTTP needs, built once when the revision goes live and swapped atomically.
///
/// Everything is built by use, not at load: the decoded document (``PreludeStore/PolicyRevision/document``), the
/// document response (identity and gzip bodies, heads) on the first
/// `GET …/policy/document` (``servedDocument``), so start-up neither compresses nor renders heads for apps nobody
/// asks for, and the hot path still never encodes JSON for the document. What clients ask is remembered by use, in caches owned by this served revision (the swap to a
/// new revision drops them with it), each starting empty and growing with the distinct requests seen, up to its
/// bound: resolved responses (``resolvedResponses``) and policies (``resolvedPolicies``), plain queries
/// (``plainQueries``), explicit locales (``explicitLocales``). An app nobody asks for costs its document and its
/// tags, not its prepared bodies or its cache capacity.
package final class ServedPolicy: Sendable {
    /// The revision served, as the store knows it.
    package let live: PolicyRevision
    /// The app's id.
    package var appID: String { live.appID }
    /// The environment this is the live revision of.
    package var environment: String { live.environment }
    /// The revision number (1, 2, ...).
    package var revision: Int { live.number }
    /// The revision's strong entity tag (see ``PolicyETag``); what `If-Match` on admin writes compares with.
    package let etag: ETag
    /// The decoded, valid document.
    package var document: PolicyDocument { live.document }
    /// The canonical JSON bytes of `document` (compact, members in documented order): what is stored and what the
    /// admin API shows.
    package var canonicalBytes: [UInt8] { live.canonicalBytes }
    /// What clients fetch: ``canonicalBytes`` without the members only the server's analysis reads
    /// (``PreludeStore/PolicyRevision/clientBytes``; serialized on each call, kept by ``servedDocument``).
    package var clientBytes: [UInt8] { live.clientBytes }
    /// The tag of the document's gzip representation, `etag.gz` (a strong tag per representation).
    package let gzipETag: ETag
    /// The document's bodies, identity and gzip, tagged `etag` and `etag.gz` (prepared on first use).
    package var documentResponse: HTTPResponse.Prepared { servedDocument.representations }
    /// The `Cache-Control` values this snapshot's responses carry.
    package let cacheControl: PolicyCacheControl
    /// `GET /v1/apps/{app}/policy/document` for this revision (both codings, 200 and 304 heads; the body is
    /// ``clientBytes``, the tag the revision's): prepared on first use, once (the gzip body is compressed then), and
    /// kept with the revision.
    package var servedDocument: PreparedResponse {
        if let prepared = preparedDocument.withLock({ $0 }) { return prepared }
        // Compressed outside the lock; two first requests racing both compress and the first stored wins.
        let made = PreparedResponse(
            HTTPResponse.Prepared(identity: live.clientBytes, identityETag: etag, gzipETag: gzipETag),
            contentType: "application/json", headers: ["Cache-Control": cacheControl.document])
        return preparedDocument.withLock { stored in
            if let stored { return stored }
            stored = made
            return made
        }
    }
    /// Whether ``servedDocument`` has been prepared (an idle revision has not).
    package var isDocumentPrepared: Bool { preparedDocument.withLock { $0 != nil } }
    private let preparedDocument = Mutex<PreparedResponse?>(nil)
    /// When the revision was created (milliseconds since the Unix epoch).
    package var createdAt: Int64 { live.createdAt }
    /// Who created the revision (a token name, or `system`).
    package var author: String { live.author }
    /// The revision's message, if any.
    package var message: String? { live.message }
    /// The rules of this build the stored revision does not meet (``StoredPolicyReader``); empty for a revision
    /// this build wrote or that validates as written.
    package var storedFindings: [ValidationProblem] { live.storedFindings }
    /// Where the served document has a ``CopyFallback`` text the stored revision lacks.
    package var fallbacks: [JSONPointer] { live.fallbacks }
    /// Every locale with copy in the document, plus its default locale.
    package var availableLocales: Set<LocaleTag> { keyShape.availableLocales }
    /// Which client inputs can change a resolved policy of this document (the cache key keeps only those);
    /// derived by the core, next to the resolver that reads them.
    package var keyShape: ResolutionKeyShape { live.keyShape }
    /// What each explicit `locale` value a client sent means for this document (parsed, resolved), remembered.
    package let explicitLocales: ExplicitLocaleMemo
    /// Plain resolved-policy queries of this revision by everything but the install id, with their responses.
    package let plainQueries = PlainPolicyQueries()
    /// Resolved-policy responses prepared for this revision, by resolution.
    package let resolvedResponses: LRUCache<ResolutionKey, ResolvedPolicyResponse.Entry>
    /// Resolved policies of this revision (what decide runs the engine on), by resolution.
    package let resolvedPolicies: LRUCache<ResolutionKey, ResolvedPolicy>

    /// Builds a served revision from parts computed outside any lock (``PreparedDocument``).
    package convenience init(
        appID: String, environment: String = EnvironmentName.production, revision: Int, document: PolicyDocument,
        prepared: PreparedDocument, createdAt: Int64, author: String, message: String?, resolvedCacheCapacity: Int,
        cacheControl: PolicyCacheControl = .defaults, storedFindings: [ValidationProblem] = [],
        fallbacks: [JSONPointer] = []
    ) {
        self.init(
            PolicyRevision(
                appID: appID, environment: environment, number: revision, document: document,
                canonical: prepared.canonical, createdAt: createdAt, author: author,
                message: message, storedFindings: storedFindings, fallbacks: fallbacks),
            resolvedCacheCapacity: resolvedCacheCapacity, cacheControl: cacheControl)
    }

    /// Serves `live`; nothing is prepared until asked for.
    package init(
        _ live: PolicyRevision, resolvedCacheCapacity: Int,
        cacheControl: PolicyCacheControl = .defaults
    ) {
        self.live = live
        etag = ETag(live.entityTag)
        gzipETag = PolicyETag.gzip(etag)
        self.cacheControl = cacheControl
        explicitLocales = ExplicitLocaleMemo(shape: live.keyShape)
        resolvedResponses = LRUCache(capacity: resolvedCacheCapacity)
        resolvedPolicies = LRUCache(capacity: resolvedCacheCapacity)
    }

    /// The opaque tags (bytes, no quotes) naming this revision: the identity and the gzip representation's.
    ///
    /// Both count for `If-Match` (strong comparison, RFC 9110 §13.1.1) because a client that read the document
    /// gzip-compressed holds the `.gz` tag, and it names the same revision.
    package var entityTags: [[UInt8]] {
        [Array(etag.opaqueTag.utf8), Array(gzipETag.opaqueTag.utf8)]
    }

    /// Whether an `If-Match` header value names this revision (either coding's tag, or `*`).
    package func matchesIfMatch(_ headerValue: String) -> Bool {
        RevisionPrecondition(ifMatch: headerValue).admits(entityTags)
    }

    /// The revision-independent, expensive part of a snapshot: its canonical bytes.
    ///
    /// Computed before a write transaction so that serializing does not hold the writer queue (the client bytes and
    /// the gzip body are made later, on first use: ``servedDocument``).
    package struct PreparedDocument: Sendable {
        /// The canonical bytes.
        package let canonical: [UInt8]

        /// Serializes `document`.
        package init(_ document: PolicyDocument) {
            self.init(canonical: document.jsonValue.serializedBytes())
        }

        /// The document whose canonical bytes are `canonical`.
        package init(canonical: [UInt8]) {
            self.canonical = canonical
        }
    }
}
