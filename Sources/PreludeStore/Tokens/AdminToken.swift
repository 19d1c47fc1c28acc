import PreludeCore

/// An admin token as stored: everything but the secret, which is never kept (only its SHA-256).
package struct AdminToken: Sendable, Equatable {
    /// Row id.
    package var id: Int64
    /// Unique name; recorded as the actor of every change made with the token.
    package var name: String
    /// What the token may do.
    package var scope: TokenScope
    /// Creation time, milliseconds since the Unix epoch.
    package var createdAt: Int64
    /// Revocation time, or nil while the token is active.
    package var revokedAt: Int64?
    /// Last successful authentication (updated at most once a minute), or nil.
    package var lastUsedAt: Int64?
    /// Which apps and environments it may touch, and whether it may approve or bypass approval.
    package var grant: TokenGrant

    /// Creates a token record.
    package init(
        id: Int64, name: String, scope: TokenScope, createdAt: Int64, revokedAt: Int64? = nil,
        lastUsedAt: Int64? = nil, grant: TokenGrant = .unrestricted
    ) {
        self.id = id
        self.name = name
        self.scope = scope
        self.createdAt = createdAt
        self.revokedAt = revokedAt
        self.lastUsedAt = lastUsedAt
        self.grant = grant
    }

    /// Whether the token still authenticates.
    package var isActive: Bool { revokedAt == nil }

    /// Token names: 1–64 letters, digits, `.`, `-`, `_` (they appear in audit records and URLs).
    package static func isValidName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (1...64).contains(bytes.count) else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"):
                true
            default: false
            }
        }
    }
}
