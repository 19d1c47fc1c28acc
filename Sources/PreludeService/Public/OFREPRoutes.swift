import PreludeCore
import PreludeHTTP
import PreludeStore

/// OpenFeature Remote Evaluation Protocol (OFREP, docs/openfeature.md, docs/ofrep/openapi.yaml) over the decide
/// engine: an OpenFeature provider's base URL is `https://host/v1/apps/{app}`, so its calls land on
///
/// - `POST /v1/apps/{app}/ofrep/v1/evaluate/flags/{key}`: one feature (the flag key), its state in the context;
/// - `POST /v1/apps/{app}/ofrep/v1/evaluate/flags`: every feature of the app, states under `context.features`,
///   with an `ETag` over the answer and `If-None-Match` answered with 304.
///
/// The same path as `POST /v1/apps/{app}/decide`: the context becomes decide's values (``OFREPRequest``, no JSON
/// written and read again), the resolved policy comes from the same served policy
/// (``ServedPolicy/resolved(for:)``), and the core's one decide function
/// (``PreludeCore/DecideContract/decisions(in:for:now:)``) decides at the same clock. Like
/// decide, an evaluation records nothing: exposures are counted only from the events the app sends
/// (`POST /v1/apps/{app}/events`), so evaluating through OFREP never adds to them. No authentication, as for the
/// other public endpoints; no rate limit either (so no 429).
package enum OFREPRoutes {
    /// Registers both routes.
    package static func register(on router: inout Router, store: PolicyStore, clock: ServiceClock = .system) {
        let options = RouteOptions(maxBodySize: PublicRoutes.maxDecideBodySize, runsInline: true)
        // Under production's prefix and any environment's, as every public route (PublicRoutes.prefixes).
        for base in PublicRoutes.prefixes {
            router.add(.post, base + "/ofrep/v1/evaluate/flags/{key}", options: options) { request in
                do throws(OFREPFailure) {
                    return try evaluateFlag(request, store: store, clock: clock)
                } catch {
                    return error.response
                }
            }
            router.add(.post, base + "/ofrep/v1/evaluate/flags", options: options) { request in
                do throws(OFREPFailure) {
                    return try evaluateFlags(request, store: store, clock: clock)
                } catch {
                    return error.response
                }
            }
        }
    }

    /// One flag: 200 `evaluationSuccess`, 400 `evaluationFailure`, 404 `flagNotFound`.
    static func evaluateFlag(_ request: HTTPRequest, store: PolicyStore, clock: ServiceClock) throws(OFREPFailure)
        -> HTTPResponse
    {
        try requireJSON(request)
        let key = request.pathParameter("key") ?? ""
        let snapshot = try liveSnapshot(request, store: store, key: key)
        guard let feature = Feature(rawValue: key), snapshot.document.features[feature] != nil else {
            throw .flagNotFound(
                key,
                details: "'\(key)' is not a feature of app \(snapshot.document.app.id); its features are "
                    + configuredFeatures(snapshot).map(\.rawValue).joined(separator: ", "))
        }
        let decide = try OFREPRequest.single(request.body, feature: feature, acceptLanguage: acceptLanguage(request))
        let (policy, locale, now) = resolve(decide, snapshot: snapshot, clock: clock)
        // The core's one decide function, as decide calls it.
        let decision: Decision
        switch DecideContract.decisions(in: policy, for: decide.states, now: now)[0] {
        case .success(let decided): decision = decided
        case .failure(let failure): throw .invalidContext("context: \(failure.error.description)", key: key)
        }
        let body = OFREPEvaluation.json(decision, revision: snapshot.revision, locale: locale).serializedBytes()
        return HTTPResponse(headers: headers(locale: locale), body: body)
    }

    /// Every feature of the app: 200 `bulkEvaluationSuccess` with an `ETag`, 304 when `If-None-Match` matches it,
    /// 400 `bulkEvaluationFailure`. A feature the engine cannot decide on is an `evaluationFailure` in `flags`.
    static func evaluateFlags(_ request: HTTPRequest, store: PolicyStore, clock: ServiceClock) throws(OFREPFailure)
        -> HTTPResponse
    {
        try requireJSON(request)
        try checkChangeMetadata(request)
        let snapshot = try liveSnapshot(request, store: store, key: nil)
        let decide = try OFREPRequest.bulk(
            request.body, configured: configuredFeatures(snapshot), acceptLanguage: acceptLanguage(request))
        let (policy, locale, now) = resolve(decide, snapshot: snapshot, clock: clock)
        // The core's one decide function, as decide calls it.
        let results = DecideContract.decisions(in: policy, for: decide.states, now: now)
        let flags: [JSONValue] = zip(decide.states, results).map { state, result in
            switch result {
            case .success(let decision): OFREPEvaluation.json(decision, revision: snapshot.revision, locale: locale)
            case .failure(let failure): OFREPEvaluation.failure(state.feature, failure.error)
            }
        }
        let metadata = JSONObject([("revision", .integer(snapshot.revision)), ("locale", .string(locale))])
        let body = JSONValue.object(JSONObject([("flags", .array(flags)), ("metadata", .object(metadata))]))
            .serializedBytes()
        // The tag is the answer's own bytes: it changes when a decision does (a new revision, a cadence that came
        // due), so a provider's If-None-Match is answered 304 exactly when it already holds this answer. OFREP
        // asks for 304 on this POST (RFC 9110 §13.1.2 would say 412 for a method other than GET or HEAD).
        let etag = ETag.strong(for: body)
        var headers = headers(locale: locale)
        headers.set("ETag", etag.headerValue)
        let ifNoneMatch = request.headers.values(for: "If-None-Match")
        if !ifNoneMatch.isEmpty, etag.matchesIfNoneMatch(ifNoneMatch.joined(separator: ", ")) {
            return HTTPResponse(status: .notModified, headers: headers)
        }
        return HTTPResponse(headers: headers, body: body)
    }

    /// A body declared as anything but UTF-8 JSON is refused with 415 before it is read, by the rule decide and
    /// every other JSON route apply (``PreludeHTTP/JSONMediaType``). A body with no `Content-Type` is read as JSON:
    /// the protocol's specification (docs/ofrep/openapi.yaml) has no 415, and its errors for a body that is not
    /// JSON are PARSE_ERROR.
    private static func requireJSON(_ request: HTTPRequest) throws(OFREPFailure) {
        guard request.headers["Content-Type"] != nil else { return }
        do throws(ProblemDetails) {
            try JSONMediaType.require(request, accepting: .anyJSON)
        } catch {
            throw .unsupportedMediaType(error.detail ?? "the body must be application/json")
        }
    }

    /// `flagConfigEtag` and `flagConfigLastModified` (event-stream metadata, OFREP ADR-0008): accepted and not
    /// needed (every call evaluates the live revision), but a `flagConfigLastModified` that is neither Unix seconds
    /// (≥ 0) nor an RFC 3339 date-time is a PARSE_ERROR, as the specification types it.
    private static func checkChangeMetadata(_ request: HTTPRequest) throws(OFREPFailure) {
        guard let value = request.queryValue("flagConfigLastModified") else { return }
        if !value.isEmpty, value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) { return }
        if RFC3339.milliseconds(value) != nil { return }
        throw .parse(
            "flagConfigLastModified: expected Unix seconds or an RFC 3339 date-time, found '\(value)'", key: nil)
    }

    /// The resolved policy, served locale and "now" for `decide`, exactly as the decide endpoint computes them.
    private static func resolve(_ decide: DecideRequest, snapshot: ServedPolicy, clock: ServiceClock)
        -> (ResolvedPolicy, String, Instant)
    {
        let policy = snapshot.resolved(for: decide.context)
        return (policy, policy.locale.description, Instant(secondsSinceEpoch: clock.seconds))
    }

    /// The app's live snapshot; an unknown app is FLAG_NOT_FOUND (404), an unservable one 503 with the
    /// specification's general error body.
    private static func liveSnapshot(_ request: HTTPRequest, store: PolicyStore, key: String?) throws(OFREPFailure)
        -> ServedPolicy
    {
        do {
            return try PublicRoutes.liveSnapshot(request, store: store)
        } catch {
            if error.status == .notFound {
                throw OFREPFailure(
                    status: .notFound, errorCode: "FLAG_NOT_FOUND", details: error.detail ?? "unknown app", key: key)
            }
            throw OFREPFailure(status: error.status, errorCode: nil, details: error.detail ?? error.title, key: nil)
        }
    }

    /// The features the app's live policy configures, in catalogue order.
    private static func configuredFeatures(_ snapshot: ServedPolicy) -> [Feature] {
        snapshot.document.orderedFeatures.map(\.feature)
    }

    /// `Accept-Language`, used as decide uses it when the context gives no `locale`.
    private static func acceptLanguage(_ request: HTTPRequest) -> String? {
        let values = request.headers.values(for: "Accept-Language")
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    /// A decision depends on the request time: never stored by a cache.
    private static func headers(locale: String) -> HTTPHeaders {
        ["Content-Type": "application/json", "Cache-Control": "no-store", "Content-Language": locale]
    }
}
