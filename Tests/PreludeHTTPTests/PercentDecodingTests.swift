import Testing

@testable import PreludeHTTP

/// The parser checks a query with `isValidQuery` and decodes it only when a handler reads it: the check must
/// accept exactly the queries `parseQuery` decodes, and a parsed request's `query` must be those pairs.
@Suite struct PercentDecodingTests {
    static func valid(_ query: String) -> Bool {
        var text = query
        return text.withUTF8 { PercentDecoding.isValidQuery($0) }
    }

    static func pairs(_ query: String) -> [(name: String, value: String)]? {
        var text = query
        return text.withUTF8 { PercentDecoding.parseQuery($0) }
    }

    @Test(arguments: [
        "a=1&b=2", "a=%41", "a=%4", "a=%zz", "%=1", "a=%00", "a=%C3%A9", "a=%C3", "a+b=c+d", "&&a&", "", "=",
        "a=1&b=%", "n%C3%A9=v", "é=ü", "a==b", "a=%E2%9C%93&b=%ff",
    ])
    func theCheckAcceptsExactlyWhatDecodes(query: String) {
        #expect(Self.valid(query) == (Self.pairs(query) != nil), "\(query)")
    }

    @Test func generatedQueriesAgree() {
        let alphabet = Array("ab=&%+4F1zé\u{0}".unicodeScalars).map(String.init)
        var state: UInt64 = 0x5EED
        for _ in 0..<5_000 {
            var text = ""
            for _ in 0..<Int(state % 12) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                text += alphabet[Int(state >> 33) % alphabet.count]
            }
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            #expect(Self.valid(text) == (Self.pairs(text) != nil), "\(text.debugDescription)")
        }
    }

    @Test func aRequestsQueryIsItsRawQueryDecodedAndSettingPairsReencodesThem() throws {
        let bytes = Array("GET /p?x=1&y=a+b&z=%26&flag HTTP/1.1\r\nHost: h\r\n\r\n".utf8)
        let head = try bytes.withUnsafeBufferPointer { b throws(HTTPParseError) in
            try RequestDecoder.parseHead(b, limits: RequestDecoderTests.limits)
        }
        var request = HTTPRequest(
            head: head, body: [], pathParameters: PathParameters([:]), remoteAddress: "",
            requestID: RequestIdentifier(""))
        #expect(request.rawQuery == "x=1&y=a+b&z=%26&flag")
        #expect(request.query.map { "\($0.name)=\($0.value)" } == ["x=1", "y=a b", "z=&", "flag="])
        #expect(request.queryValue("y") == "a b")
        request.query = [(name: "only", value: "this")]
        #expect(request.rawQuery == "only=this")
        #expect(request.queryValue("only") == "this" && request.queryValue("x") == nil)
        // Pairs given in process are encoded so that reading them back gives them exactly (`+`, `&`, `=`, `%`,
        // spaces and non-ASCII included).
        let pairs = [(name: "a b", value: "1+1=2&%"), (name: "é", value: ""), (name: "k", value: "v~-._")]
        let made = HTTPRequest(method: .get, path: "/", query: pairs)
        #expect(made.query.map { "\($0.name)|\($0.value)" } == pairs.map { "\($0.name)|\($0.value)" })
        #expect(made.rawQuery == "a%20b=1%2B1%3D2%26%25&%C3%A9=&k=v~-._")
    }

    @Test func aValueIsFoundByNameInPlace() {
        func location(_ query: String) -> RawQuery.ValueLocation {
            RawQuery(query).withBytes { RawQuery.valueLocation(of: "id", in: $0) }
        }
        #expect(location("a=1&id=xyz&b=2") == .at(7..<10))
        #expect(location("id=") == .at(3..<3))
        #expect(location("a=1") == .absent)
        #expect(location("") == .absent)
        #expect(location("id=a&id=b") == .ambiguous)
        #expect(location("id&a=1") == .ambiguous)
        #expect(location("idx=1") == .absent)
    }
}
