import PreludeCore
import PreludeHTTP

/// The body of `GET /v1/apps/{app}/policy`: the resolved policy (docs/policy.md, "Resolution") with the
/// revision it came from, prepared once per distinct ``ResolutionKey`` of a snapshot.
package enum ResolvedPolicyResponse {
    /// The prepared response for `context`: from the snapshot's cache, or resolved, serialized, compressed and
    /// cached on a miss.
    package static func prepared(_ snapshot: LiveSnapshot, context: ClientContext) -> (
        HTTPResponse.Prepared, ResolutionKey
    ) {
        let key = ResolutionKey(context: context, snapshot: snapshot)
        if let cached = snapshot.resolvedResponses.value(for: key) { return (cached, key) }
        let prepared = HTTPResponse.Prepared(
            identity: body(snapshot.revision, resolved(snapshot, context: context, key: key)))
        snapshot.resolvedResponses.insert(prepared, for: key)
        return (prepared, key)
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
