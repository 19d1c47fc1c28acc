import PreludeCore
import PreludeHTTP
import PreludeStore
import Synchronization

/// One app's live revision as served: the store's ``PreludeStore/PolicyRevision`` (document, canonical bytes, key
/// shape, tag) plus what serving it over HTTP needs, built once when the revision goes live and swapped atomically.
///
/// The one door of the read path, as GRDB's `DatabasePool` is of its connections (its writer and readers are
/// private; callers only read and write): a policy fetch asks ``response(for:)-(HTTPRequest)``, decide and OFREP ask
/// ``resolved(for:)``, the admin API asks ``canonicalJSON``. The caches behind them are private, so nothing else can
/// fill or read one out of turn.
///
/// Everything is built by use, not at load: the decoded document (``PreludeStore/PolicyRevision/document``), the
/// document response (identity and gzip bodies, heads) on the first `GET …/policy/document` (``servedDocument``),
/// the canonical JSON on the first admin diff, so start-up neither compresses nor renders heads for apps nobody
/// asks for, and the hot path still never encodes JSON for the document. What clients ask is remembered by use, in
/// caches owned by this served revision (the swap to a new revision drops them with it), each starting empty and
/// growing with the distinct requests seen, up to its bound: resolved responses and policies by
/// ``PreludeCore/ResolutionKey``, plain queries (``PlainPolicyQueries``), explicit locales (``ExplicitLocaleMemo``).
/// An app nobody asks for costs its document and its tags, not its prepared bodies or its cache capacity.
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
    private let explicitLocales: ExplicitLocaleMemo
    /// Plain resolved-policy queries of this revision by everything but the install id, with their responses.
    private let plainQueries: PlainPolicyQueries
    /// Resolved-policy responses prepared for this revision, by resolution.
    private let resolvedResponses: LRUCache<ResolutionKey, ResolvedPolicyResponse.Entry>
    /// Resolved policies of this revision (what decide and OFREP run the engine on), by resolution.
    private let resolvedPolicies: LRUCache<ResolutionKey, ResolvedPolicy>
    /// ``canonicalJSON``, once built.
    private let canonical = Mutex<JSONValue?>(nil)

    /// Builds a served revision from parts computed outside any lock (``PreparedDocument``).
    package convenience init(
        appID: String, environment: String = EnvironmentName.production, revision: Int, document: PolicyDocument,
        prepared: PreparedDocument, createdAt: Int64, author: String, message: String?, resolvedCacheCapacity: Int,
        cacheControl: PolicyCacheControl = .defaults, storedFindings: [ValidationProblem] = [],
        fallbacks: [JSONPointer] = [], plainQueryCapacity: Int = 1024
    ) {
        self.init(
            PolicyRevision(
                appID: appID, environment: environment, number: revision, document: document,
                canonical: prepared.canonical, createdAt: createdAt, author: author,
                message: message, storedFindings: storedFindings, fallbacks: fallbacks),
            resolvedCacheCapacity: resolvedCacheCapacity, cacheControl: cacheControl,
            plainQueryCapacity: plainQueryCapacity)
    }

    /// Serves `live`; nothing is prepared until asked for. `plainQueryCapacity`: the most plain queries remembered.
    package init(
        _ live: PolicyRevision, resolvedCacheCapacity: Int,
        cacheControl: PolicyCacheControl = .defaults, plainQueryCapacity: Int = 1024
    ) {
        self.live = live
        etag = ETag(live.entityTag)
        gzipETag = PolicyETag.gzip(etag)
        self.cacheControl = cacheControl
        explicitLocales = ExplicitLocaleMemo(shape: live.keyShape)
        plainQueries = PlainPolicyQueries(capacity: plainQueryCapacity)
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

// The read path: every cache above is reached from here only.
extension ServedPolicy {
    /// The document as canonical JSON (what the admin API diffs a write or a dry run against): built on first use,
    /// once per revision, so a run of admin writes builds it once (BENCHMARKS.md, "Admin writes").
    package var canonicalJSON: JSONValue {
        if let json = canonical.withLock({ $0 }) { return json }
        // Built outside the lock; two first requests racing both build it and the first stored wins.
        let json = document.jsonValue
        return canonical.withLock { stored in
            if let stored { return stored }
            stored = json
            return json
        }
    }

    /// `GET …/policy` for `request`: the prepared response of its resolution, or the 400 naming every bad parameter.
    ///
    /// Nearly every client sends a plain query seen before apart from its install id: found by the query's bytes,
    /// the variants drawn from the install id's bytes (``PlainPolicyQueries``). Any other query is parsed once
    /// (``PolicyQuery/parse(_:locales:)``): a plain one is then remembered, a decoded one answered, problems thrown.
    package func response(for request: HTTPRequest) throws(ProblemDetails) -> ResolvedPolicyResponse.Entry {
        let acceptLanguage = PolicyQuery.acceptLanguage(request.headers)
        var parsed: PolicyQuery.Parsed?
        let remembered = request.rawQueryView.withBytes { bytes in
            plainQueries.entry(query: bytes, acceptLanguage: acceptLanguage, experiments: keyShape.experiments) {
                known, drawn in
                let reading: PolicyQuery.Reading
                if let known {
                    reading = known
                } else {
                    let outcome = PolicyQuery.parse(request, locales: explicitLocales)
                    guard case .plain(let plain) = outcome else {
                        parsed = outcome
                        return nil
                    }
                    reading = plain
                }
                let (entry, key) = prepared(reading, drawn: drawn)
                return (entry, key.variants, reading)
            }
        }
        if let remembered { return remembered }
        switch parsed ?? PolicyQuery.parse(request, locales: explicitLocales) {
        case .plain(let reading), .decoded(let reading): return prepared(reading, drawn: nil).0
        case .problems(let problem): throw problem
        }
    }

    /// The prepared response for a client context already checked.
    package func response(for context: ClientContext) -> ResolvedPolicyResponse.Entry {
        prepared(PolicyQuery.Reading(context: context, explicitLocale: explicitLocale(of: context)), drawn: nil).0
    }

    /// The resolved policy for `context` (what decide and OFREP decide in): from this revision's cache, or resolved
    /// and cached. Its `locale` is the served locale.
    package func resolved(for context: ClientContext) -> ResolvedPolicy {
        resolved(context, key: resolutionKey(for: context))
    }

    /// The resolution `context` has under this document: the core's derivation with this document's shape, the
    /// explicit locale looked up in this revision's memory of such values.
    package func resolutionKey(for context: ClientContext) -> ResolutionKey {
        ResolutionKey(context: context, shape: keyShape, explicitLocale: explicitLocale(of: context))
    }

    /// How many resolved-policy responses are cached (for tests and diagnostics).
    package var resolvedResponseCount: Int { resolvedResponses.count }
    /// How many plain queries are remembered (for tests and diagnostics).
    package var plainQueryCount: Int { plainQueries.count }

    private func explicitLocale(of context: ClientContext) -> ResolutionKey.ExplicitLocale? {
        context.locale.flatMap(explicitLocales.explicitLocale)
    }

    private func resolved(_ context: ClientContext, key: ResolutionKey) -> ResolvedPolicy {
        if let cached = resolvedPolicies.value(for: key) { return cached }
        let resolved = PolicyResolver.resolve(document, context: context)
        resolvedPolicies.insert(resolved, for: key)
        return resolved
    }

    /// The response entry for `reading`: cached, or resolved, serialized, compressed and cached (with this
    /// revision's `Cache-Control` for resolved policies). `drawn`: the variants the install id's bytes drew.
    private func prepared(_ reading: PolicyQuery.Reading, drawn: UnsafeBufferPointer<Int>?)
        -> (ResolvedPolicyResponse.Entry, ResolutionKey)
    {
        let key = ResolutionKey(
            context: reading.context, shape: keyShape, explicitLocale: reading.explicitLocale, drawn: drawn)
        if let cached = resolvedResponses.value(for: key) { return (cached, key) }
        let body = ResolvedPolicyResponse.body(revision, resolved(reading.context, key: key))
        let entry = ResolvedPolicyResponse.Entry(
            prepared: HTTPResponse.Prepared(identity: body), locale: key.locale, cacheControl: cacheControl.resolved)
        resolvedResponses.insert(entry, for: key)
        return (entry, key)
    }
}
