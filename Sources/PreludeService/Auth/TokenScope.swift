/// What an admin token may do. `write` implies `read`.
package enum TokenScope: String, Sendable, CaseIterable, Comparable {
    /// GET on /v1/admin/**.
    case read
    /// Every admin method, including token management.
    case write

    /// Whether a token of this scope may do what `required` needs.
    package func allows(_ required: TokenScope) -> Bool { self >= required }

    /// `read` < `write`.
    package static func < (lhs: TokenScope, rhs: TokenScope) -> Bool {
        lhs == .read && rhs == .write
    }
}
