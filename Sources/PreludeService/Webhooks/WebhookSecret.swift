import PreludeStorage

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Webhook signing secrets in the Standard Webhooks form: `whsec_` followed by the base64 of 24–64 random bytes
/// (docs/webhooks.md, "Verifying a delivery"). The bytes after decoding are the HMAC key.
package enum WebhookSecret {
    /// The prefix that marks a symmetric webhook secret.
    package static let prefix = "whsec_"
    /// The fewest key bytes accepted (192 bits).
    package static let minimumBytes = 24
    /// The most key bytes accepted (512 bits).
    package static let maximumBytes = 64
    /// How many random bytes a generated secret has (256 bits).
    package static let generatedBytes = 32

    /// A new secret from the system's CSPRNG.
    package static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<generatedBytes).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return prefix + Data(bytes).base64EncodedString()
    }

    /// The HMAC key of `secret`; nil unless it is `whsec_` and standard base64 of 24–64 bytes.
    package static func key(_ secret: String) -> [UInt8]? {
        guard secret.hasPrefix(prefix), let data = Data(base64Encoded: String(secret.dropFirst(prefix.count))) else {
            return nil
        }
        return (minimumBytes...maximumBytes).contains(data.count) ? Array(data) : nil
    }
}

/// The Standard Webhooks signature of one attempt: `v1,` and the base64 HMAC-SHA256, under the secret's key, of
/// `{webhook-id}.{webhook-timestamp}.{body}` (docs/webhooks.md).
package enum WebhookSignature {
    /// The `webhook-signature` value for `body` sent with `id` at `timestamp` (unix seconds).
    package static func sign(id: String, timestamp: Int64, body: [UInt8], key: [UInt8]) -> String {
        precondition(!id.contains("."), "a webhook id must not contain the signature's separator")
        let message = Array("\(id).\(timestamp).".utf8) + body
        return "v1," + Data(HMACSHA256.authenticationCode(key: key, message: message)).base64EncodedString()
    }
}
