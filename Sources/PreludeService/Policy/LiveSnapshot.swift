import PreludeCore
import PreludeHTTP

/// One app's live revision as served: immutable, built once when the revision goes live, swapped atomically.
///
/// Everything a policy request needs is precomputed here (canonical bytes, the prepared document response
/// with its identity and gzip bodies and tags, the locales with copy), so the hot path never encodes JSON
/// for the document. Resolved policies are prepared lazily per distinct resolution in ``resolvedResponses``
/// and ``resolvedPolicies``, bounded caches owned by this snapshot: the swap to a new revision drops them with it.
package final class LiveSnapshot: Sendable {
    /// The app's id.
    package let appID: String
    /// The revision number (1, 2, ...).
    package let revision: Int
    /// The revision's strong entity tag (see ``PolicyETag``); what `If-Match` on admin writes compares with.
    package let etag: ETag
    /// The decoded, valid document.
    package let document: PolicyDocument
    /// The canonical JSON bytes of `document` (compact, members in documented order).
    package let canonicalBytes: [UInt8]
    /// The document's bodies, identity and gzip, tagged `etag` and `etag.gz`.
    package let documentResponse: HTTPResponse.Prepared
    /// The `Cache-Control` values this snapshot's responses carry.
    package let cacheControl: PolicyCacheControl
    /// `GET /v1/apps/{app}/policy/document` for this revision, prepared (both codings, 200 and 304 heads).
    package let servedDocument: PreparedResponse
    /// When the revision was created (milliseconds since the Unix epoch).
    package let createdAt: Int64
    /// Who created the revision (a token name, or `system`).
    package let author: String
    /// The revision's message, if any.
    package let message: String?
    /// The rules of this build the stored revision does not meet (``StoredPolicyReader``); empty for a revision
    /// this build wrote or that validates as written.
    package let storedFindings: [ValidationProblem]
    /// Where the served document has a ``CopyFallback`` text the stored revision lacks.
    package let fallbacks: [JSONPointer]
    /// Every locale with copy in the document, plus its default locale.
    package var availableLocales: Set<LocaleTag> { keyShape.availableLocales }
    /// Which client inputs can change a resolved policy of this document (the cache key keeps only those);
    /// derived by the core, next to the resolver that reads them.
    package let keyShape: ResolutionKeyShape
    /// What each explicit `locale` value a client sent means for this document (parsed, resolved), remembered.
    package let explicitLocales: ExplicitLocaleMemo
    /// Plain resolved-policy queries of this revision by everything but the install id, with their responses.
    package let plainQueries = PlainPolicyQueries()
    /// Resolved-policy responses prepared for this revision, by resolution.
    package let resolvedResponses: LRUCache<ResolutionKey, ResolvedPolicyResponse.Entry>
    /// Resolved policies of this revision (what decide runs the engine on), by resolution.
    package let resolvedPolicies: LRUCache<ResolutionKey, ResolvedPolicy>

    /// Builds a snapshot from parts computed outside any lock (``PreparedDocument``).
    package init(
        appID: String, revision: Int, document: PolicyDocument, prepared: PreparedDocument, createdAt: Int64,
        author: String, message: String?, resolvedCacheCapacity: Int, cacheControl: PolicyCacheControl = .defaults,
        storedFindings: [ValidationProblem] = [], fallbacks: [JSONPointer] = []
    ) {
        self.storedFindings = storedFindings
        self.fallbacks = fallbacks
        self.appID = appID
        self.revision = revision
        self.document = document
        canonicalBytes = prepared.canonical
        etag = PolicyETag.make(revision: revision, canonical: prepared.canonical)
        var response = prepared.response
        response.identityETag = etag
        response.gzipETag = PolicyETag.gzip(etag)
        documentResponse = response
        self.cacheControl = cacheControl
        servedDocument = PreparedResponse(
            response, contentType: "application/json", headers: ["Cache-Control": cacheControl.document])
        self.createdAt = createdAt
        self.author = author
        self.message = message
        keyShape = ResolutionKeyShape(document)
        explicitLocales = ExplicitLocaleMemo(shape: keyShape)
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
            canonical = document.jsonValue.serializedBytes()
            response = HTTPResponse.Prepared(identity: canonical)
        }
    }
}
