import Testing

@testable import PreludeHTTP

/// A generated request id is written into the head from its number and made into text only when read: both must
/// be the same 16 lowercase hex digits, and a client's id is kept as sent.
@Suite struct RequestIdentifierTests {
    @Test func generatedIdsReadAndWriteAsTheSameDigits() {
        var generator = RequestIDGenerator()
        for value in [UInt64(0), 1, 0xFEDC_BA98_7654_3210, .max, generator.next(), generator.next()] {
            let identifier = RequestIdentifier.generated(value)
            var written: [UInt8] = []
            identifier.append(to: &written)
            #expect(String(decoding: written, as: UTF8.self) == identifier.text)
            #expect(identifier.text.utf8.count == 16)
            let hex = String(value, radix: 16)
            #expect(identifier.text == String(repeating: "0", count: 16 - hex.count) + hex)
        }
        #expect(RequestIdentifier.generated(0xAB).text == "00000000000000ab")
    }

    @Test func givenIdsAndNoneAreTheirText() {
        var written: [UInt8] = []
        RequestIdentifier.given("client-id-7").append(to: &written)
        #expect(String(decoding: written, as: UTF8.self) == "client-id-7")
        #expect(RequestIdentifier.none.text == "")
        #expect(("" as RequestIdentifier) == .none)
        #expect(("abc" as RequestIdentifier) == .given("abc"))
        var request = HTTPRequest(method: .get, path: "/", requestID: "r1")
        #expect(request.requestID == "r1")
        request.requestID = ""
        #expect(request.requestID == "")
    }
}
