import PreludeCore
import PreludeHTTP

/// The body of `GET /v1/apps/{app}/policy`: the resolved policy (docs/policy.md, "Resolution") with the
/// revision it came from, prepared once per distinct ``ResolutionKey`` of a snapshot.
package enum ResolvedPolicyResponse {
    /// One resolution's response, cached per snapshot: the prepared bodies and, because without `If-None-Match`
    /// the 200 depends only on the coding, the two whole 200 responses. Serving the same response value (the
    /// same header storage) each time also lets the HTTP engine reuse the head it rendered for it.
    package struct Entry: Sendable {
        /// Identity and gzip bodies, with their tags.
        package let prepared: HTTPResponse.Prepared
        /// The served locale.
        package let locale: LocaleTag
        /// The 200 for a client that does not prefer gzip.
        package let identity: HTTPResponse
        /// The 200 for a client that prefers gzip.
        package let gzip: HTTPResponse

        /// The entry for `prepared`, with the responses ``response(_:_:locale:cacheControl:)`` gives for a
        /// request without conditions, for each coding.
        init(prepared: HTTPResponse.Prepared, locale: LocaleTag, cacheControl: String) {
            self.prepared = prepared
            self.locale = locale
            var acceptsGzip = HTTPHeaders()
            acceptsGzip.set("Accept-Encoding", "gzip")
            identity = ResolvedPolicyResponse.response(
                HTTPRequest(method: .get, path: "/"), prepared, locale: locale, cacheControl: cacheControl)
            gzip = ResolvedPolicyResponse.response(
                HTTPRequest(method: .get, path: "/", headers: acceptsGzip), prepared, locale: locale,
                cacheControl: cacheControl)
        }

        /// The response to `request`: a cached 200 unless the request has `If-None-Match` (then negotiated
        /// again, for the 304).
        package func response(to request: HTTPRequest, cacheControl: String) -> HTTPResponse {
            guard request.headers["If-None-Match"] == nil else {
                return ResolvedPolicyResponse.response(request, prepared, locale: locale, cacheControl: cacheControl)
            }
            // The preference exactly as `HTTPResponse.negotiated` computes it.
            let acceptEncoding = request.headers.values(for: "Accept-Encoding").joined(separator: ", ")
            return AcceptEncoding.prefersGzip(acceptEncoding.isEmpty ? nil : acceptEncoding) ? gzip : identity
        }
    }

    /// The response entry for `context`: from the snapshot's cache, or resolved, serialized, compressed and
    /// cached on a miss. `cacheControl` is the `Cache-Control` value of the responses.
    package static func prepared(_ snapshot: LiveSnapshot, context: ClientContext, cacheControl: String) -> (
        Entry, ResolutionKey
    ) {
        let key = ResolutionKey(context: context, snapshot: snapshot)
        if let cached = snapshot.resolvedResponses.value(for: key) { return (cached, key) }
        let prepared = HTTPResponse.Prepared(
            identity: body(snapshot.revision, resolved(snapshot, context: context, key: key)))
        let entry = Entry(prepared: prepared, locale: key.locale, cacheControl: cacheControl)
        snapshot.resolvedResponses.insert(entry, for: key)
        return (entry, key)
    }

    /// The negotiated response (200 or 304) serving `prepared` in `locale` to `request`.
    package static func response(
        _ request: HTTPRequest, _ prepared: HTTPResponse.Prepared, locale: LocaleTag, cacheControl: String
    ) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.set("Cache-Control", cacheControl)
        headers.set("Content-Language", locale.description)
        var response = HTTPResponse.negotiated(request, prepared, contentType: "application/json", headers: headers)
        // RFC 9110 §12.5.5: the bytes also depend on Accept-Language (when no locale parameter is given).
        response.headers.set("Vary", "Accept-Encoding, Accept-Language")
        return response
    }

    /// The resolved policy for `context` (whose key is `key`): from the snapshot's cache, or resolved and cached.
    package static func resolved(_ snapshot: LiveSnapshot, context: ClientContext, key: ResolutionKey)
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
