import PreludeCore
import PreludeHTTP
import PreludeStore
import Testing

@testable import PreludeService

/// The store's refusals answer through the service's HTTP error protocol (``ProblemError``): the admin route group
/// answers whatever a handler throws in one place, with no catch per error type.
@Suite struct ProblemErrorTests {
    private static let request = HTTPRequest(method: .put, path: "/v1/admin/apps/ghost/policy")

    @Test func aPolicyStoreErrorIsAnsweredWithItsProblemNamingTheAdminResource() throws {
        let thrown: any Error = PolicyStoreError.unknownApp("ghost")
        let error = try #require(thrown as? any ProblemError)
        #expect(error.problem == PolicyStoreProblem.unknownApp("ghost"))
        let response = AdminRouteGroup.answer(
            thrown, to: Self.request, route: "PUT /v1/admin/apps/{app}/policy", pretty: false,
            logger: Logger(level: .error))
        #expect(response.status == .notFound)
        let body = try JSONValue(parsing: response.body)
        #expect(body["type"] == .string(PolicyStoreProblem.unknownApp))
        #expect(body["instance"] == .string("/v1/admin/apps/ghost/policy"))
    }

    @Test func tokenAndWebhookRefusalsMapToTheirStatuses() {
        #expect(TokenError.nameTaken("ci").problem.status == .conflict)
        #expect(TokenError.notFound("ci").problem.status == .notFound)
        #expect(TokenError.invalidName("a b").problem.errors.map(\.pointer) == ["/name"])
        #expect(WebhookStore.Refusal.webhookDisabled("w1").problem.status == .conflict)
        #expect(WebhookStore.Refusal.unknownDelivery("d1").problem.status == .notFound)
    }

    @Test func anErrorThatIsNoProblemIsA500WithoutInternals() throws {
        struct Secret: Error {}
        let response = AdminRouteGroup.answer(
            Secret(), to: Self.request, route: "PUT /v1/admin/apps/{app}/policy", pretty: false,
            logger: Logger(level: .error) { _ in })
        #expect(response.status == .internalServerError)
        #expect(!String(decoding: response.body, as: UTF8.self).contains("Secret"))
    }
}
