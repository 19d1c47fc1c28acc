import PreludeStorage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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

    /// The least estimated entropy accepted from `PRELUDE_ADMIN_TOKEN` (``estimatedEntropyBits(_:)``): the admin
    /// failure limiter lets a valid token through while a source is over budget, so it bounds the rate of
    /// guesses but not their number; only the secret's entropy makes guessing hopeless (docs/security.md).
    package static let minimumEntropyBits = 128.0

    /// An estimate of the entropy of an operator-chosen secret, in bits: its length times the Shannon entropy of
    /// its own character frequencies. Short, repetitive and small-alphabet values score low (`"x" * 40` is 0 bits,
    /// 32 random hex digits about 112); 64 random hex digits (`openssl rand -hex 32`) score about 240. It cannot
    /// see a phrase a person chose, which is why the secret should be generated.
    package static func estimatedEntropyBits(_ secret: String) -> Double {
        let bytes = Array(secret.utf8)
        guard !bytes.isEmpty else { return 0 }
        var counts = [Int](repeating: 0, count: 256)
        for byte in bytes { counts[Int(byte)] += 1 }
        let total = Double(bytes.count)
        let perCharacter = counts.reduce(0.0) { sum, count in
            guard count > 0 else { return sum }
            let p = Double(count) / total
            return sum - p * log2(p)
        }
        return perCharacter * total
    }

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
