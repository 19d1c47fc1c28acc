import PreludeCore
import PreludeStore

extension AdminToken {
    /// `{"name", "scope", "createdAt", "lastUsedAt", "revokedAt", "active", "apps", "environments", "approve",
    /// "bypass"}` with ISO 8601 times (null when unset); `apps` and `environments` are `"*"` for all
    /// (``PreludeStore/TokenGrant``).
    package var jsonValue: JSONValue {
        let base: JSONValue = [
            "name": .string(name), "scope": .string(scope.rawValue), "active": .bool(isActive),
            "createdAt": .string(AdminTime.iso8601(createdAt)),
            "lastUsedAt": lastUsedAt.map { .string(AdminTime.iso8601($0)) } ?? .null,
            "revokedAt": revokedAt.map { .string(AdminTime.iso8601($0)) } ?? .null,
        ]
        var object = base.objectValue ?? JSONObject()
        for (key, value) in grant.jsonValue.objectValue ?? JSONObject() { object[key] = value }
        return .object(object)
    }
}
