import PreludeCore
import PreludeStore

extension AdminToken {
    /// `{"name", "scope", "createdAt", "lastUsedAt", "revokedAt", "active"}` with ISO 8601 times (null when unset).
    package var jsonValue: JSONValue {
        [
            "name": .string(name), "scope": .string(scope.rawValue), "active": .bool(isActive),
            "createdAt": .string(AdminTime.iso8601(createdAt)),
            "lastUsedAt": lastUsedAt.map { .string(AdminTime.iso8601($0)) } ?? .null,
            "revokedAt": revokedAt.map { .string(AdminTime.iso8601($0)) } ?? .null,
        ]
    }
}
