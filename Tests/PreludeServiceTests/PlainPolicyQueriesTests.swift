import PreludeCore
import PreludeHTTP
import PreludeTestSupport
import Testing

@testable import PreludeService

/// A remembered query answers what the full path answers: same response for every install, whatever variants it
/// draws, and nothing for a query the full path must decode or refuse.
@Suite struct PlainPolicyQueriesTests {
    static func snapshot(plainQueryCapacity: Int = 1024) -> ServedPolicy {
        ServedPolicy(
            appID: "demo", revision: 1, document: PublicFixture.demoDocument,
            prepared: ServedPolicy.PreparedDocument(PublicFixture.demoDocument), createdAt: 0, author: "t",
            // Room for every resolution the tests draw (the demo's four experiments), so none is evicted and
            // `===` can compare the memory's response with the full path's.
            message: nil, resolvedCacheCapacity: 1024, plainQueryCapacity: plainQueryCapacity)
    }

    /// The full path's response for `request` (its decoded context), or nil when it refuses the query.
    static func fullPath(_ request: HTTPRequest, _ snapshot: ServedPolicy) -> PreparedResponse? {
        let locales = ExplicitLocaleMemo(shape: snapshot.keyShape)
        guard let (context, _) = try? PolicyQuery.decodedContext(request, locales: locales) else { return nil }
        return snapshot.response(for: context).response
    }

    /// Whether the served policy's answer to the query is the full path's; true when the query is plain (the
    /// served policy then remembers it).
    static func expectSameAnswer(_ rawQuery: String, acceptLanguage: String?, _ snapshot: ServedPolicy) -> Bool {
        let request = PolicyQueryTests.parsed(rawQuery, acceptLanguage: acceptLanguage)
        let served = try? snapshot.response(for: request)
        #expect(served?.response === fullPath(request, snapshot), "\(rawQuery)")
        let plain = PolicyQuery.plainContext(RawQuery(rawQuery), locales: ExplicitLocaleMemo(shape: snapshot.keyShape))
        if plain != nil { #expect(snapshot.plainQueryCount > 0, "\(rawQuery)") }
        return plain != nil
    }

    @Test func everyInstallGetsTheResponseOfItsVariants() {
        let snapshot = Self.snapshot()
        var random = SplitMix64(state: 7)
        for n in 0..<400 {
            let install = "install-\(random.next() % 10_000)-\(n)"
            for query in [
                "platform=ios&os=17.4&appVersion=2.3.0&locale=fr-CA&installId=\(install)",
                "installId=\(install)&locale=de&platform=ipados&os=16.0",
                "platform=ios&os=15.1&locale=en",
            ] {
                #expect(Self.expectSameAnswer(query, acceptLanguage: nil, snapshot))
                #expect(Self.expectSameAnswer(query, acceptLanguage: "fr-CA, en;q=0.5", snapshot))
            }
        }
        #expect(snapshot.plainQueryCount == 6)  // three queries, each with and without Accept-Language
    }

    @Test(arguments: [
        "installId=a&installId=b", "installId", "installId=", "installId=a%41", "installId=a+b",
        "platform=IOS&installId=x", "os=x&installId=y", "locale=xx-%41&installId=z", "unknown=1&installId=q",
        "installId=\(String(repeating: "i", count: 129))", "installIdx=1", "platform=ios&&installId=a=b&", "",
    ])
    func oddQueriesGetTheFullPathsAnswer(rawQuery: String) {
        let snapshot = Self.snapshot()
        for _ in 0..<2 {  // first through the full computation, then remembered
            _ = Self.expectSameAnswer(rawQuery, acceptLanguage: nil, snapshot)
        }
    }

    /// Generated queries (the shape of PolicyQueryTests' generator) with generated install ids.
    @Test func generatedQueriesGetTheFullPathsAnswer() {
        let snapshot = Self.snapshot(plainQueryCapacity: 64)
        var random = SplitMix64(state: 20_261_124)
        let pieces = [
            "platform=ios", "platform=tvos", "os=17.4", "os=12", "appVersion=2.3.0", "locale=fr", "locale=zh_Hant_TW",
            "locale=es-419", "platform=IOS", "os=%31%37", "extra=1", "locale", "",
        ]
        var remembered = 0
        for _ in 0..<3_000 {
            var parts: [String] = []
            for _ in 0..<random.below(5) { parts.append(pieces[random.below(pieces.count)]) }
            if random.chance(0.8) { parts.insert("installId=i\(random.below(50))", at: random.below(parts.count + 1)) }
            let raw = parts.joined(separator: "&")
            if Self.expectSameAnswer(raw, acceptLanguage: random.chance(0.3) ? "de, fr;q=0.5" : nil, snapshot) {
                remembered += 1
            }
        }
        #expect(remembered > 500)
        #expect(snapshot.plainQueryCount <= 64)
    }

    /// The fuzzer's find: without the query's length in the key, the empty query with an empty Accept-Language and
    /// the query "\n" without one had the same key, and the second was answered from the first's memory.
    @Test func theKeyKeepsQueryAndAcceptLanguageApart() {
        let snapshot = Self.snapshot()
        #expect(Self.expectSameAnswer("", acceptLanguage: "", snapshot))
        #expect(!Self.expectSameAnswer("\n", acceptLanguage: nil, snapshot))
        #expect(Self.expectSameAnswer("locale=fr", acceptLanguage: "de", snapshot))
        #expect(!Self.expectSameAnswer("locale=fr\u{1}de", acceptLanguage: nil, snapshot))
    }

    @Test func installIdRangeFindsTheOnePlainPiece() {
        func range(_ query: String) -> Range<Int>?? {
            var text = query
            return text.withUTF8 { PlainPolicyQueries.installIdRange($0) }
        }
        #expect(range("a=1&installId=xyz&b=2") == .some(14..<17))
        #expect(range("installId=") == .some(10..<10))
        #expect(range("a=1") == .some(nil))
        #expect(range("") == .some(nil))
        #expect(range("installId=a&installId=b") == nil)
        #expect(range("installId&a=1") == nil)
        #expect(range("installIdx=1") == .some(nil))
    }
}
