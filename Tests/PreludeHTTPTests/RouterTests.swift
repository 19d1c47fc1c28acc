import PreludeHTTP
import Testing

@Suite struct RouterTests {
    static func make() -> Router {
        var router = Router()
        router.add(.get, "/v1/apps/{app}/policy") { _ in HTTPResponse() }
        router.add(.get, "/v1/apps/{app}/policy/document") { _ in HTTPResponse() }
        router.add(.post, "/v1/apps/{app}/decide") { _ in HTTPResponse() }
        router.add(.get, "/v1/apps/demo/special") { _ in HTTPResponse(status: .accepted) }
        router.add(.get, "/v1/apps/{app}/special") { _ in HTTPResponse() }
        return router
    }

    @Test func capturesNamedSegments() throws {
        guard case .found(let route, let parameters) = Self.make().match(method: .get, path: "/v1/apps/demo/policy")
        else { Issue.record("no match"); return }
        #expect(route.pattern == "/v1/apps/{app}/policy")
        #expect(parameters == ["app": "demo"])
    }

    @Test func literalSegmentsWinOverCaptures() throws {
        guard case .found(let route, _) = Self.make().match(method: .get, path: "/v1/apps/demo/special")
        else { Issue.record("no match"); return }
        #expect(route.pattern == "/v1/apps/demo/special")
    }

    @Test func headFallsBackToGet() {
        guard case .found(let route, _) = Self.make().match(method: .head, path: "/v1/apps/x/policy")
        else { Issue.record("no match"); return }
        #expect(route.method == .get)
    }

    @Test func reportsAllowedMethodsForKnownPath() {
        guard case .methodNotAllowed(let allowed) = Self.make().match(method: .delete, path: "/v1/apps/x/decide")
        else { Issue.record("expected 405"); return }
        #expect(allowed == [.post])
    }

    /// A literal segment of another method's route wins over a capture, as in a trie router: the path is that
    /// route's, so another method is 405, not a lookup of a rollout named "simulate" (schemathesis ST204).
    @Test func aLiteralOfAnotherMethodMakesTheCaptureRoute405() {
        var router = Router()
        router.add(.get, "/v1/rollouts/{id}") { _ in HTTPResponse() }
        router.add(.post, "/v1/rollouts/{id}/start") { _ in HTTPResponse() }
        router.add(.post, "/v1/rollouts/simulate") { _ in HTTPResponse() }
        #expect(Self.describe(router.match(method: .get, path: "/v1/rollouts/simulate")) == "405 POST")
        #expect(Self.describe(router.match(method: .head, path: "/v1/rollouts/simulate")) == "405 POST")
        #expect(
            Self.describe(router.match(method: .post, path: "/v1/rollouts/simulate")) == "POST /v1/rollouts/simulate ")
        #expect(Self.describe(router.match(method: .get, path: "/v1/rollouts/7")) == "GET /v1/rollouts/{id} id=7")
        #expect(
            Self.describe(router.match(method: .get, path: "/v1/rollouts/simulatex"))
                == "GET /v1/rollouts/{id} id=simulatex")
        #expect(
            Self.describe(router.match(method: .post, path: "/v1/rollouts/simulate/start"))
                == "POST /v1/rollouts/{id}/start id=simulate")
    }

    @Test func unknownPathIsNotFound() {
        guard case .notFound = Self.make().match(method: .get, path: "/nope") else {
            Issue.record("expected 404"); return
        }
    }

    static func describe(_ match: Router.Match) -> String {
        switch match {
        case .found(let route, let parameters):
            let pairs = parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            return "\(route.method) \(route.pattern) \(pairs.joined(separator: ","))"
        case .methodNotAllowed(let allowed): return "405 \(allowed.map(\.rawValue).joined(separator: ","))"
        case .notFound: return "404"
        }
    }

    /// Matching works on the path's bytes when it is ASCII and on `String`s otherwise; both must choose alike:
    /// empty segments ignored, more literal segments first, the exact method before HEAD→GET, every capture bound.
    @Test(arguments: [
        ("GET", "/v1/apps/demo/policy", "GET /v1/apps/{app}/policy app=demo"),
        ("GET", "//v1//apps/demo/policy/", "GET /v1/apps/{app}/policy app=demo"),
        ("GET", "/v1/apps/d\u{E9}mo/policy", "GET /v1/apps/{app}/policy app=d\u{E9}mo"),
        ("GET", "/v1/apps/e\u{301}/policy", "GET /v1/apps/{app}/policy app=e\u{301}"),
        ("GET", "/v1/apps/demo/special", "GET /v1/apps/demo/special "),
        ("GET", "/v1/apps/dem/special", "GET /v1/apps/{app}/special app=dem"),
        ("GET", "/v1/apps/demoo/special", "GET /v1/apps/{app}/special app=demoo"),
        ("HEAD", "/v1/apps/x/policy", "GET /v1/apps/{app}/policy app=x"),
        ("HEAD", "/v1/apps/x/policy/document", "HEAD /v1/apps/{app}/policy/document app=x"),
        ("GET", "/v1/apps/x/policy/document", "GET /v1/apps/{app}/policy/document app=x"),
        ("DELETE", "/v1/apps/x/policy", "405 GET,HEAD"),
        ("DELETE", "/v1/apps/x/policy/document", "405 GET,HEAD,PUT"),
        ("DELETE", "/v1/apps/x/decide", "405 POST"),
        ("GET", "/v1/apps/x/decide/more", "404"),
        ("GET", "/", "GET / "),
        ("GET", "", "GET / "),
        ("GET", "/a/b/c", "GET /{x}/{y}/{x} x=c,y=b"),
        ("GET", "/a/\u{E9}/c", "GET /{x}/{y}/{x} x=c,y=\u{E9}"),
        ("PUT", "/a/b", "404"),
        ("GET", "/a/b/c/d/e/f/g/h", "404"),
    ])
    func choosesLikeTheStringScan(method: String, path: String, expected: String) {
        var router = Self.make()
        router.add(.head, "/v1/apps/{app}/policy/document") { _ in HTTPResponse() }
        router.add(.put, "/v1/apps/{app}/policy/document") { _ in HTTPResponse() }
        router.add(.get, "/") { _ in HTTPResponse() }
        router.add(.get, "/{x}/{y}/{x}") { _ in HTTPResponse() }
        #expect(Self.describe(router.match(method: HTTPMethod(rawValue: method), path: path)) == expected)
    }

    @Test func aRouterWithoutRoutesFindsNothing() {
        #expect(Self.describe(Router().match(method: .get, path: "/")) == "404")
        #expect(Self.describe(Router().match(method: .get, path: "/a/b")) == "404")
    }

    @Test func nonASCIILiteralsMatchByStringEquality() {
        var router = Router()
        router.add(.get, "/caf\u{E9}/{id}") { _ in HTTPResponse() }
        // "e" + combining acute is canonically equivalent to "é": String equality matches it, bytes would not.
        #expect(Self.describe(router.match(method: .get, path: "/cafe\u{301}/7")) == "GET /caf\u{E9}/{id} id=7")
        #expect(Self.describe(router.match(method: .get, path: "/caf\u{E9}/7")) == "GET /caf\u{E9}/{id} id=7")
        #expect(Self.describe(router.match(method: .get, path: "/cafe/7")) == "404")
        // An ASCII literal against a path that is not ASCII: the Kelvin sign is canonically equivalent to "K".
        router.add(.get, "/units/Kelvin/{id}") { _ in HTTPResponse() }
        #expect(
            Self.describe(router.match(method: .get, path: "/units/\u{212A}elvin/3")) == "GET /units/Kelvin/{id} id=3")
        #expect(Self.describe(router.match(method: .get, path: "/units/Kelvin/3")) == "GET /units/Kelvin/{id} id=3")
    }
}
