import PreludeCore
import PreludeHTTP
import PreludeTestSupport
import Testing

@testable import PreludeService

/// The resolved-policy query is read from the raw bytes when it is plain and through the decoded pairs otherwise:
/// both must give the same context, and every query the plain path declines must get the decoded path's problems.
@Suite struct PolicyQueryTests {
    static let memo = ExplicitLocaleMemo(shape: PublicResolutionKeyTests.snapshot.keyShape)

    /// A request as the server parses it (its query is its raw query).
    static func parsed(_ rawQuery: String, acceptLanguage: String? = nil) -> HTTPRequest {
        var headers = HTTPHeaders()
        if let acceptLanguage { headers.add("Accept-Language", acceptLanguage) }
        return HTTPRequest(
            method: .get, path: "/v1/apps/demo/policy", rawQuery: rawQuery, headers: headers,
            pathParameters: ["app": "demo"], remoteAddress: "127.0.0.1:1")
    }

    typealias Outcome = (context: ClientContext?, tag: LocaleTag?, match: LocaleTag?, problem: ProblemDetails?)

    /// What `request` gets: the route's way (plain queries read in place) or, with `decoded`, always the long way.
    static func outcome(_ request: HTTPRequest, decoded: Bool = false) -> Outcome {
        do {
            let (context, explicit) =
                try decoded
                ? PolicyQuery.decodedContext(request, locales: memo) : PolicyQuery.context(request, locales: memo)
            return (context, explicit?.tag, explicit?.match, nil)
        } catch {
            return (nil, nil, nil, error)
        }
    }

    static func expectSame(_ rawQuery: String, acceptLanguage: String? = nil) {
        let request = parsed(rawQuery, acceptLanguage: acceptLanguage)
        let fast = outcome(request)
        let decoded = outcome(request, decoded: true)
        #expect(fast.context == decoded.context, "\(rawQuery)")
        #expect(fast.tag == decoded.tag && fast.match == decoded.match, "\(rawQuery)")
        #expect(fast.problem == decoded.problem, "\(rawQuery)")
    }

    @Test func aPlainQueryIsReadFromItsBytes() throws {
        let raw = "platform=ios&os=17.4&appVersion=2.3.0&locale=fr-CA&installId=8C1F0A2E"
        #expect(PolicyQuery.plainContext(RawQuery(raw), locales: Self.memo) != nil)
        Self.expectSame(raw)
        Self.expectSame(raw, acceptLanguage: "de-DE, en;q=0.5")
        let (context, explicit) = try PolicyQuery.context(Self.parsed(raw), locales: Self.memo)
        #expect(context.platform == .ios && context.osVersion == SemanticVersion("17.4"))
        #expect(context.appVersion == SemanticVersion("2.3.0") && context.installId == "8C1F0A2E")
        #expect(context.locale == "fr-CA" && explicit?.tag == LocaleTag("fr-CA"))
    }

    @Test(arguments: [
        "platform=IOS", "platform=ios&platform=ios", "os=17", "os=x", "locale=fr%2DCA", "installId=a+b",
        "installId=", "locale", "unknown=1", "platform=ios&&os=17.4", "&&", "", "os=17.4.1-beta+build",
        "appVersion=2.3.0&appversion=1", "locale=not-a-locale-tag-at-all", "installId=%E2%9C%93", "os=%31%37",
    ])
    func declinedQueriesGetTheDecodedPathsAnswer(rawQuery: String) {
        Self.expectSame(rawQuery)
    }

    /// Generated queries over every parameter, valid and invalid values, repeats, unknown names, escapes, `+` and
    /// empty pieces: the two paths agree on every one.
    @Test func generatedQueriesGetTheSameAnswerOnBothPaths() {
        var random = SplitMix64(state: 20_261_124)
        let names = ["platform", "os", "appVersion", "locale", "installId", "extra", "Platform", "os%3D"]
        let values = [
            "ios", "ipados", "IOS", "17.4", "2.3.0", "1.0.0-rc.1", "x", "", "fr", "fr-CA", "zh_Hant_TW", "de-DE-1996",
            "xx", "8C1F0A2E", "install-1", "a+b", "%41", "%zz", "1.2.3", String(repeating: "i", count: 129),
        ]
        var plainSeen = 0
        for _ in 0..<2_000 {
            var pieces: [String] = []
            for _ in 0..<Int(random.next() % 6) {
                let name = names[Int(random.next() % UInt64(names.count))]
                switch random.next() % 8 {
                case 0: pieces.append(name)
                case 1: pieces.append("")
                default: pieces.append(name + "=" + values[Int(random.next() % UInt64(values.count))])
                }
            }
            let raw = pieces.joined(separator: "&")
            if PolicyQuery.plainContext(RawQuery(raw), locales: Self.memo) != nil { plainSeen += 1 }
            Self.expectSame(raw, acceptLanguage: random.next() % 3 == 0 ? "fr-CA, en;q=0.4" : nil)
        }
        #expect(plainSeen > 100)  // the comparison covered the plain path, not only the declined one
    }
}
