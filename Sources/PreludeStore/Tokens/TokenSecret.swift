import PreludeStorage

/// Admin token secrets: generation, hashing and constant-time comparison.
///
/// A secret is `prl_` followed by 43 base62 characters drawn uniformly from the system's CSPRNG
/// (`SystemRandomNumberGenerator`: getrandom(2) on Linux), i.e. 256 bits. Only SHA-256 of the whole string is
/// stored. A fast hash is enough because the secret is uniformly random, not a password a person chose
/// (docs/security.md); the prefix lets secret scanners and people recognise a leaked Prelude token.
package enum TokenSecret {
    /// The prefix of generated secrets.
    package static let prefix = "prl_"
    /// Characters after the prefix: 43 × log2(62) ≈ 256.03 bits.
    package static let randomLength = 43
    /// The shortest secret accepted from `PRELUDE_ADMIN_TOKEN`; an operator-chosen value shorter than this
    /// is too easy to guess.
    package static let minimumLength = 32

    private static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)

    /// A new secret from the system generator.
    package static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        return generate(using: &generator)
    }

    /// A new secret from `generator` (tests pass a seeded one to check the format).
    package static func generate(using generator: inout some RandomNumberGenerator) -> String {
        // Int.random(in:using:) is unbiased (no modulo bias), so every character is uniform over 62.
        var bytes = Array(prefix.utf8)
        for _ in 0..<randomLength { bytes.append(alphabet[Int.random(in: 0..<alphabet.count, using: &generator)]) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The stored form: SHA-256 of the secret's UTF-8 bytes.
    package static func digest(_ secret: String) -> [UInt8] { SHA256.digest(secret.utf8) }

    /// Whether `secret` can be sent in an `Authorization: Bearer` field: RFC 6750 §2.1 `b64token` characters
    /// (letters, digits, `-._~+/`, trailing `=`), at least `minimumLength` long, at most 512.
    package static func isAcceptable(_ secret: String) -> Bool {
        let bytes = Array(secret.utf8)
        guard (minimumLength...512).contains(bytes.count) else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                true
            case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "+"),
                UInt8(ascii: "/"), UInt8(ascii: "="):
                true
            default: false
            }
        }
    }

    /// Compares two digests in time that depends only on their lengths, never on where they first differ,
    /// so response timing cannot reveal how much of a guessed token's digest was right.
    package static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in 0..<a.count { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
