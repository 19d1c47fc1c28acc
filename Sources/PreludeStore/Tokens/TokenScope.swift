/// What an admin token may do, each scope including the ones below it: `read` < `replica` < `write`.
package enum TokenScope: String, Sendable, CaseIterable, Comparable {
    /// GET on /v1/admin/** (and following the change feed).
    case read
    /// A read replica's token: everything `read` may, and forwarding client events to
    /// `POST /v1/admin/apps/{app}/events` (docs/security.md, "Token scopes"). Never a policy, token or setting.
    case replica
    /// Every admin method, including token management.
    case write

    /// Whether a token of this scope may do what `required` needs.
    package func allows(_ required: TokenScope) -> Bool { self >= required }

    /// `read` < `replica` < `write`.
    package static func < (lhs: TokenScope, rhs: TokenScope) -> Bool {
        rank(lhs) < rank(rhs)
    }

    private static func rank(_ scope: TokenScope) -> Int {
        switch scope {
        case .read: 0
        case .replica: 1
        case .write: 2
        }
    }
}
