/// FNV-1a, 64 bits: the checksum of cached files and the hash in cache file names (not cryptographic; it
/// catches truncation and torn or flipped bytes, and full validation runs after it anyway).
enum FNV1a64 {
    /// The hash of `bytes`.
    static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// The hash as 16 lowercase hex digits.
    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let text = String(hash(bytes), radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }
}
