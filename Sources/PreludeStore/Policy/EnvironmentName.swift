/// The rules of an environment's name (`production`, `staging`, `qa-eu`): 1–32 lowercase ASCII letters, digits and
/// `-`, starting with a letter. Names appear in URLs (`/v1/apps/{app}/environments/{env}/policy`), audit records and
/// token scopes, so they need no escaping anywhere.
package enum EnvironmentName {
    /// The environment every app has, which the paths without an environment mean.
    package static let production = "production"

    /// The rule ``isValid(_:)`` checks, in words, for error messages.
    package static let rule = "1–32 lowercase letters, digits and '-', starting with a letter"

    /// Whether `name` is a valid environment name (``rule``).
    package static func isValid(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (1...32).contains(bytes.count), let first = bytes.first,
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first)
        else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"): true
            default: false
            }
        }
    }
}
