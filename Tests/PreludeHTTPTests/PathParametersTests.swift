import Testing

@testable import PreludeHTTP

/// What a route's `{name}` segments captured, without a dictionary: the same answers as one.
@Suite struct PathParametersTests {
    @Test func answersLikeADictionary() {
        var parameters = PathParameters()
        #expect(parameters.count == 0)
        #expect(parameters["app"] == nil)
        #expect(parameters.dictionary.isEmpty)
        parameters.append(name: "app", value: "demo")
        #expect(parameters["app"] == "demo")
        #expect(parameters["App"] == nil, "names are matched exactly")
        parameters.append(name: "key", value: "onboarding")
        parameters.append(name: "id", value: "7")
        #expect(parameters.count == 3)
        #expect(parameters["key"] == "onboarding")
        #expect(parameters["id"] == "7")
        #expect(parameters.dictionary == ["app": "demo", "key": "onboarding", "id": "7"])
    }

    /// A pattern may name a capture twice (`/{x}/{y}/{x}`): the last value wins, as with a dictionary.
    @Test func aRepeatedNameKeepsItsLastValue() {
        var parameters = PathParameters()
        parameters.append(name: "x", value: "a")
        parameters.append(name: "y", value: "b")
        parameters.append(name: "x", value: "c")
        parameters.append(name: "y", value: "d")
        #expect(parameters.count == 2)
        #expect(parameters.dictionary == ["x": "c", "y": "d"])
        let literal: PathParameters = ["a": "1", "b": "2"]
        #expect(literal.dictionary == ["a": "1", "b": "2"])
    }

    @Test func requestsAndReportsReadOneValueOrTheDictionary() {
        var request = HTTPRequest(
            method: .get, path: "/v1/apps/demo/results/k", pathParameters: ["app": "demo", "key": "k"])
        #expect(request.pathParameter("app") == "demo")
        #expect(request.pathParameter("key") == "k")
        #expect(request.pathParameter("missing") == nil)
        #expect(request.pathParameters == ["app": "demo", "key": "k"])
        request.pathParameters = ["app": "other"]
        #expect(request.pathParameter("app") == "other")
        #expect(request.pathParameter("key") == nil)

        var report = CompletedRequest(
            method: .get, route: "/v1/apps/{app}/policy", status: 200, durationNanoseconds: 1, bytesSent: 2,
            requestID: "r", remoteAddress: "127.0.0.1:1", pathParameters: ["app": "demo"])
        #expect(report.pathParameter("app") == "demo")
        #expect(report.pathParameters == ["app": "demo"])
        report.pathParameters = [:]
        #expect(report.pathParameter("app") == nil)
    }

    /// The router fills them: the handler reads what the path held.
    @Test func theRouterCapturesIntoThem() {
        var router = Router()
        router.add(.get, "/v1/apps/{app}/results/{key}") { _ in HTTPResponse() }
        guard case .found(_, let parameters) = router.lookup(method: .get, path: "/v1/apps/demo/results/onboarding")
        else {
            Issue.record("expected a match")
            return
        }
        #expect(parameters["app"] == "demo")
        #expect(parameters["key"] == "onboarding")
        #expect(parameters.count == 2)
    }
}
