import PreludeCore
import PreludeHTTP

/// The body of `GET /v1/apps/{app}/policy`: the resolved policy (docs/policy.md, "Resolution") with the
/// revision it came from, prepared once per distinct ``ResolutionKey`` of a snapshot.
package enum ResolvedPolicyResponse {
    /// One resolution's response, cached per snapshot: a ``PreparedResponse`` the HTTP engine negotiates per
    /// request (coding, 304), with `Cache-Control`, `Content-Language` and `Vary: Accept-Encoding,
    /// Accept-Language` (RFC 9110 §12.5.5: without a locale parameter the bytes also depend on Accept-Language).
    package struct Entry: Sendable {
        /// The prepared response.
        package let response: PreparedResponse
        /// The served locale.
        package let locale: LocaleTag

        /// Identity and gzip bodies, with their tags.
        package var prepared: HTTPResponse.Prepared { response.representations }

        /// Prepares `prepared` served in `locale` with `cacheControl`.
        init(prepared: HTTPResponse.Prepared, locale: LocaleTag, cacheControl: String) {
            self.locale = locale
            response = PreparedResponse(
                prepared, contentType: "application/json",
                headers: ["Cache-Control": cacheControl, "Content-Language": locale.description],
                vary: "Accept-Encoding, Accept-Language")
        }
    }

    /// The response entry for `context`: from the snapshot's cache, or resolved, serialized, compressed and
    /// cached on a miss (with the snapshot's `Cache-Control` for resolved policies).
    package static func prepared(_ snapshot: ServedPolicy, context: ClientContext) -> (Entry, ResolutionKey) {
        prepared(
            snapshot, context: context,
            explicitLocale: context.locale.flatMap(snapshot.explicitLocales.explicitLocale))
    }

    /// ``prepared(_:context:)`` with the context's explicit locale already looked at (``ExplicitLocaleMemo``).
    package static func prepared(
        _ snapshot: ServedPolicy, context: ClientContext, explicitLocale: ResolutionKey.ExplicitLocale?
    ) -> (Entry, ResolutionKey) {
        let key = ResolutionKey(context: context, shape: snapshot.keyShape, explicitLocale: explicitLocale)
        if let cached = snapshot.resolvedResponses.value(for: key) { return (cached, key) }
        let prepared = HTTPResponse.Prepared(
            identity: body(snapshot.revision, resolved(snapshot, context: context, key: key)))
        let entry = Entry(prepared: prepared, locale: key.locale, cacheControl: snapshot.cacheControl.resolved)
        snapshot.resolvedResponses.insert(entry, for: key)
        return (entry, key)
    }

    /// The resolved policy for `context` (whose key is `key`): from the snapshot's cache, or resolved and cached.
    package static func resolved(_ snapshot: ServedPolicy, context: ClientContext, key: ResolutionKey)
        -> ResolvedPolicy
    {
        if let cached = snapshot.resolvedPolicies.value(for: key) { return cached }
        let resolved = PolicyResolver.resolve(snapshot.document, context: context)
        snapshot.resolvedPolicies.insert(resolved, for: key)
        return resolved
    }

    /// The JSON bytes: `{"schemaVersion", "revision", "app", "locale", "features", "experiments"}`.
    package static func body(_ revision: Int, _ resolved: ResolvedPolicy) -> [UInt8] {
        guard case .object(let object) = resolved.jsonValue else { return resolved.jsonValue.serializedBytes() }
        var root = JSONObject()
        root["schemaVersion"] = object["schemaVersion"]
        root["revision"] = .integer(revision)
        for (key, value) in object where key != "schemaVersion" { root[key] = value }
        return JSONValue.object(root).serializedBytes()
    }
}
