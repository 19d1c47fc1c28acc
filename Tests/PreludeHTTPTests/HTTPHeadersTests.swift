import Testing

@testable import PreludeHTTP

/// Header lookups skip the fields when a name's signature bit is absent: they must answer exactly what a walk
/// over every field answers, through adds, sets and removes.
@Suite struct HTTPHeadersTests {
    /// The answers of a plain walk over the fields, case-insensitively (RFC 9110 §5.1).
    static func walk(_ headers: HTTPHeaders, _ name: String) -> [String] {
        headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }

    @Test func lookupsAgreeWithAWalkOverTheFields() {
        let names = [
            "Accept-Language", "accept-language", "ACCEPT-LANGUAGE", "Accept-Encoding", "X-Request-ID", "x-request-id",
            "Host", "Vary", "A", "a", "B", "Content-Length", "If-None-Match", "X", "",
        ]
        var state: UInt64 = 0xC0FFEE
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % bound
        }
        for _ in 0..<500 {
            var headers = HTTPHeaders()
            for _ in 0..<next(8) {
                let name = names[next(names.count)]
                switch next(4) {
                case 0: headers.set(name, "s\(next(10))")
                case 1: headers.remove(name)
                default: headers.add(name, "v\(next(10))")
                }
            }
            for name in names {
                let expected = Self.walk(headers, name)
                #expect(headers.values(for: name) == expected, "\(name) in \(Array(headers))")
                #expect(headers[name] == expected.first)
                #expect(headers.contains(name) == !expected.isEmpty)
                let joined = expected.joined(separator: ", ")
                #expect(headers.combinedValue(for: name) == (joined.isEmpty ? nil : joined))
            }
        }
    }

    @Test func parsedFieldsAreFoundByTheirSignatures() throws {
        let bytes = Array("GET / HTTP/1.1\r\nHost: x\r\naccept-LANGUAGE: fr\r\nX-Request-ID: abc\r\n\r\n".utf8)
        let head = try bytes.withUnsafeBufferPointer { b throws(HTTPParseError) in
            try RequestDecoder.parseHead(b, limits: RequestDecoderTests.limits)
        }
        #expect(head.headers["Accept-Language"] == "fr")
        #expect(head.headers.value(for: "x-request-id", signature: HTTPHeaders.nameSignature("X-Request-ID")) == "abc")
        #expect(head.headers["Accept-Encoding"] == nil)
        #expect(head.headers.nameSignatures & HTTPHeaders.nameSignature("Host") != 0)
    }
}
