import PreludeCore
import PreludeHTTP
import PreludeStore

/// One app's live revision as served: the store's ``PreludeStore/PolicyRevision`` (document, canonical bytes, key
/// shape, tag) plus what serving it over HTTP needs, built once when the revision goes live and swapped atomically.
///
/// The document response is prepared here (identity and gzip bodies and tags), so the hot path never encodes JSON
/// for the document. What clients ask is remembered by use, in caches owned by this served revision (the swap to a
/// new revision drops them with it), each starting empty and growing with the distinct requests seen, up to its
/// bound: resolved responses (``resolvedResponses``) and policies (``resolvedPolicies``), plain queries
/// (``plainQueries``), explicit locales (``explicitLocales``). An app nobody asks for costs its document and its
/// prepared bodies, not its cache capacity.
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
    /// The canonical JSON bytes of `document` (compact, members in documented order).
    package var canonicalBytes: [UInt8] { live.canonicalBytes }
    /// The document's bodies, identity and gzip, tagged `etag` and `etag.gz`.
    package let documentResponse: HTTPResponse.Prepared
    /// The `Cache-Control` values this snapshot's responses carry.
    package let cacheControl: PolicyCacheControl
    /// `GET /v1/apps/{app}/policy/document` for this revision, prepared (both codings, 200 and 304 heads).
    package let servedDocument: PreparedResponse
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
                appID: appID, environment: environment, number: revision, document: document, canonical: prepared.canonical,
                createdAt: createdAt, author: author, message: message, storedFindings: storedFindings,
                fallbacks: fallbacks),
            prepared: prepared, resolvedCacheCapacity: resolvedCacheCapacity, cacheControl: cacheControl)
    }

    /// Serves `live`, whose bodies `prepared` holds (``PreparedDocument/init(canonical:)`` of its canonical bytes).
    package init(
        _ live: PolicyRevision, prepared: PreparedDocument, resolvedCacheCapacity: Int,
        cacheControl: PolicyCacheControl = .defaults
    ) {
        self.live = live
        etag = ETag(live.entityTag)
        var response = prepared.response
        response.identityETag = etag
        response.gzipETag = PolicyETag.gzip(etag)
        documentResponse = response
        self.cacheControl = cacheControl
        servedDocument = PreparedResponse(
            response, contentType: "application/json", headers: ["Cache-Control": cacheControl.document])
        explicitLocales = ExplicitLocaleMemo(shape: live.keyShape)
        resolvedResponses = LRUCache(capacity: resolvedCacheCapacity)
        resolvedPolicies = LRUCache(capacity: resolvedCacheCapacity)
    }

    /// Whether an `If-Match` value names this revision (either coding's tag, or `*`).
    ///
    /// Strong comparison (RFC 9110 §13.1.1). Both tags are accepted because a client that read the document
    /// gzip-compressed holds the `.gz` tag, and it names the same revision.
    package func matchesIfMatch(_ headerValue: String) -> Bool {
        etag.matchesIfMatch(headerValue) || documentResponse.gzipETag.matchesIfMatch(headerValue)
    }

    /// The revision-independent, expensive part of a snapshot: canonical bytes and their gzip form.
    ///
    /// Computed before a write transaction so that compression does not hold the writer queue.
    package struct PreparedDocument: Sendable {
        /// The canonical bytes.
        package let canonical: [UInt8]
        /// Identity and gzip bodies (tags replaced by the snapshot).
        package let response: HTTPResponse.Prepared

        /// Serializes and compresses `document`.
        package init(_ document: PolicyDocument) {
            self.init(canonical: document.jsonValue.serializedBytes())
        }

        /// Compresses the canonical bytes of a document.
        package init(canonical: [UInt8]) {
            self.canonical = canonical
            response = HTTPResponse.Prepared(identity: canonical)
        }
    }
}
