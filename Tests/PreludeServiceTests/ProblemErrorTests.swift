import PreludeCore
import PreludeHTTP
import PreludeStorage
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

    @Test func aStorageFaultIsA503WithRetryAfterLoggedWithItsInternals() throws {
        let full = StorageError(
            extendedCode: StorageError.ResultCode.full, message: "database or disk is full", sql: "INSERT INTO t")
        #expect(full.problem == StorageHealth.problem(for: full))
        let lines = RequestLogTests.Lines()
        let response = AdminRouteGroup.answer(
            full, to: Self.request, route: "PUT /v1/admin/apps/{app}/policy", pretty: false,
            logger: lines.logger)
        #expect(response.status == .serviceUnavailable)
        #expect(response.headers["Retry-After"] == "\(StorageHealth.retryAfterSeconds)")
        let body = try JSONValue(parsing: response.body)
        #expect(body["type"] == .string(StorageHealth.fullType))
        #expect(!String(decoding: response.body, as: UTF8.self).contains("INSERT"))
        // The failure is logged with what the answer leaves out.
        #expect(lines.all.count == 1)
        #expect(lines.all.first?.contains("admin request failed") == true)
        #expect(lines.all.first?.contains("INSERT INTO t") == true)
    }

    @Test func aDatabaseFailureThatIsNoStorageFaultIsA500WithoutInternals() throws {
        let unique = StorageError(extendedCode: 2067, message: "UNIQUE constraint failed: tokens.secret")
        #expect(unique.problem.status == .internalServerError)
        let lines = RequestLogTests.Lines()
        let response = AdminRouteGroup.answer(
            unique, to: Self.request, route: "PUT /v1/admin/apps/{app}/policy", pretty: false,
            logger: lines.logger)
        #expect(response.status == .internalServerError)
        #expect(response.headers["Retry-After"] == nil)
        #expect(!String(decoding: response.body, as: UTF8.self).contains("UNIQUE"))
        #expect(lines.all.count == 1)
    }

    @Test func rolloutRefusalsAreConflictsAndAnUnreadableRolloutA500() {
        let live = RolloutRepository.Refusal.liveRolloutExists(id: 3, app: "demo").problem
        #expect(live.status == .conflict)
        #expect(live.detail == "rollout 3 of demo is still live; complete or abort it first")
        let key = RolloutRepository.Refusal.keyHasData("rollout-intro").problem
        #expect(key.status == .conflict)
        #expect(key.detail == "experiment key \"rollout-intro\" already has counted installs; choose another key")
        let lines = RequestLogTests.Lines()
        let response = AdminRouteGroup.answer(
            RolloutRepository.Refusal.unreadable(id: 4), to: Self.request, route: "GET /v1/admin/apps/{app}/rollouts",
            pretty: false, logger: lines.logger)
        #expect(response.status == .internalServerError)
        #expect(lines.all.count == 1)
        // A refusal is the client's to fix: answered, not logged.
        let refused = AdminRouteGroup.answer(
            RolloutRepository.Refusal.keyHasData("k"), to: Self.request, route: "POST /v1/admin/apps/{app}/rollouts",
            pretty: false, logger: lines.logger)
        #expect(refused.status == .conflict)
        #expect(lines.all.count == 1)
    }
}
