import PreludeHTTP
import Testing

@Suite struct ByteClassTests {
    /// The `tchar` bit sets hold exactly RFC 9110 §5.6.2's characters: DIGIT, ALPHA and ``!#$%&'*+-.^_`|~``.
    @Test func tcharBitSetsMatchTheRFCList() {
        let listed = Set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!#$%&'*+-.^_`|~".utf8)
        for byte in 0...255 {
            let b = UInt8(byte)
            #expect(ByteClass.isTchar(b) == listed.contains(b), "byte \(byte)")
        }
    }
}
