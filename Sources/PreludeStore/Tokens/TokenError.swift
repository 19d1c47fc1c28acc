/// Why a token operation was refused. The CLI prints the description; the API maps each case to a status.
package enum TokenError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The name is empty, too long or has characters outside letters, digits, `.`, `-`, `_`.
    case invalidName(String)
    /// A token (active or revoked) already has this name; names are never reused so audit records stay unambiguous.
    case nameTaken(String)
    /// No active token has this name.
    case notFound(String)

    /// The operator-facing message.
    package var description: String {
        switch self {
        case .invalidName(let name):
            "invalid token name '\(name)': use 1–64 letters, digits, '.', '-' or '_'"
        case .nameTaken(let name):
            "a token named '\(name)' already exists (names of revoked tokens are not reused); choose another name"
        case .notFound(let name):
            "no active token named '\(name)'"
        }
    }
}
