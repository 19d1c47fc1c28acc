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

    @Test func unknownPathIsNotFound() {
        guard case .notFound = Self.make().match(method: .get, path: "/nope") else {
            Issue.record("expected 404"); return
        }
    }
}
