/// HMAC-SHA256 (RFC 2104 with FIPS 180-4 SHA-256), in pure Swift beside ``SHA256``: webhook signatures
/// (docs/webhooks.md) need it and nothing else here needs a crypto library.
package enum HMACSHA256 {
    /// SHA-256's block size in bytes (RFC 2104 §2: B).
    private static let blockSize = 64

    /// The 32-byte authentication code of `message` under `key` (any length: RFC 2104 §2 hashes a key longer than
    /// the block and pads every key with zeros to it).
    package static func authenticationCode(key: some Sequence<UInt8>, message: some Sequence<UInt8>) -> [UInt8] {
        var block = Array(key)
        if block.count > blockSize { block = SHA256.digest(block) }
        block += [UInt8](repeating: 0, count: blockSize - block.count)
        let inner = SHA256.digest(block.map { $0 ^ 0x36 } + Array(message))
        return SHA256.digest(block.map { $0 ^ 0x5c } + inner)
    }

    /// Whether `a` equals `b`, in time that depends only on their lengths (a verifier comparing codes must not
    /// tell an attacker how many leading bytes matched).
    package static func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
