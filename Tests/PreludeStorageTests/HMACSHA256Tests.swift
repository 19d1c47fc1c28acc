import Testing

@testable import PreludeStorage

@Suite struct HMACSHA256Tests {
    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] })
    }

    private static let longData = Array(
        ("This is a test using a larger than block-size key and a larger than block-size data. The key needs to be "
            + "hashed before being used by the HMAC algorithm.").utf8)

    // RFC 4231 §4.2–4.8 (test case 5, a truncated output, is left out): short keys, data longer than a block, keys
    // longer than the block (hashed first).
    @Test(arguments: [
        (
            [UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        ),
        (
            Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        ),
        (
            [UInt8](repeating: 0xaa, count: 20), [UInt8](repeating: 0xdd, count: 50),
            "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"
        ),
        (
            Array(1...25), [UInt8](repeating: 0xcd, count: 50),
            "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"
        ),
        (
            [UInt8](repeating: 0xaa, count: 131), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        ),
        (
            [UInt8](repeating: 0xaa, count: 131), longData,
            "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"
        ),
    ])
    func matchesRFC4231(key: [UInt8], data: [UInt8], expected: String) {
        #expect(Self.hex(HMACSHA256.authenticationCode(key: key, message: data)) == expected)
    }

    @Test func keyOfExactlyOneBlockIsNotHashed() {
        // 64 bytes is padded with nothing and used as is; 65 is hashed. Python's hmac agrees (its value from
        // Python: hmac.new(b'k' * 64, b'm', hashlib.sha256).hexdigest()).
        let block = HMACSHA256.authenticationCode(key: [UInt8](repeating: 0x6b, count: 64), message: [0x6d])
        let hashed = HMACSHA256.authenticationCode(
            key: SHA256.digest([UInt8](repeating: 0x6b, count: 65)), message: [0x6d])
        #expect(HMACSHA256.authenticationCode(key: [UInt8](repeating: 0x6b, count: 65), message: [0x6d]) == hashed)
        #expect(block != hashed)
        #expect(Self.hex(block) == "3b7a8d453e76edb519238a515105a57508d0f169f480ebeee120a9e7803289fa")
    }

    @Test func comparesInConstantShape() {
        #expect(HMACSHA256.constantTimeEquals([1, 2, 3], [1, 2, 3]))
        #expect(!HMACSHA256.constantTimeEquals([1, 2, 3], [1, 2, 4]))
        #expect(!HMACSHA256.constantTimeEquals([1, 2, 3], [1, 2]))
    }
}
