import PreludeCore
import PreludeHTTP

/// The body of `GET /v1/apps/{app}/policy`: the resolved policy (docs/policy.md, "Resolution") with the
/// revision it came from, prepared once per distinct ``ResolutionKey`` of a revision
/// (``ServedPolicy/response(for:)-(HTTPRequest)`` keeps them).
package enum ResolvedPolicyResponse {
    /// One resolution's response, cached per revision: a ``PreparedResponse`` the HTTP engine negotiates per
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
