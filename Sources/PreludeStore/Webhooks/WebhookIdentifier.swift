/// Identifiers of webhooks and deliveries: a prefix and 26 lowercase base-32 characters (130 bits) from the system's
/// CSPRNG. No `.` ever: Standard Webhooks signs `{id}.{timestamp}.{body}`, so an id must not contain the separator.
package enum WebhookIdentifier {
    private static let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567".utf8)

    /// A new webhook id, `wh_…`.
    package static func webhook() -> String { "wh_" + random() }

    /// A new delivery id, `msg_…`: the `webhook-id` header of every attempt of that delivery.
    package static func delivery() -> String { "msg_" + random() }

    /// Whether `text` has the shape of an id with `prefix` (for path parameters: anything else is unknown at once).
    package static func isWellFormed(_ text: String, prefix: String) -> Bool {
        guard text.hasPrefix(prefix) else { return false }
        let rest = text.utf8.dropFirst(prefix.utf8.count)
        return rest.count == 26 && rest.allSatisfy { alphabet.contains($0) }
    }

    private static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return String(decoding: (0..<26).map { _ in alphabet[Int(generator.next() % 32)] }, as: UTF8.self)
    }
}
