import Foundation
import PreludeCore
import PreludeStorage
import PreludeStore
import Testing

@testable import PreludeService

/// Environments over the real server (port 0, raw HTTP): each environment's own live revision, ETags, revisions,
/// rollback, audit, events and results; scoped tokens; promotion (docs/change-management.md).
@Suite struct EnvironmentTests {
    static let staging = "/v1/admin/apps/demo/environments/staging"

    /// A server whose `demo` has a `staging` copy of production.
    static func serverWithStaging() throws -> AdminServer {
        let server = try AdminServer()
        let created = try server.send(
            "POST", "/v1/admin/apps/demo/environments", body: #"{"name": "staging", "copyFrom": "production"}"#)
        #expect(created.status == 201, "\(created.body)")
        #expect(created.headers["location"] == staging)
        return server
    }

    /// Staging's ETag.
    static func stagingETag(_ server: AdminServer) throws -> String {
        try #require(try server.send("GET", staging + "/policy").headers["etag"])
    }

    /// Replaces camera's prime title in staging; returns the response.
    static func changeStagingTitle(_ server: AdminServer, to title: String) throws -> TestTransport.Response {
        try server.send(
            "PATCH", staging + "/features/camera",
            headers: [("If-Match", try stagingETag(server)), ("Content-Type", "application/merge-patch+json")],
            body: #"{"copy": {"en": {"prime": {"title": "\#(title)"}}}}"#)
    }

    @Test func aStagingChangeNeverReachesProductionClients() throws {
        let server = try Self.serverWithStaging()
        let client = PublicClient(port: server.service.port)
        let before = try client.get("/v1/apps/demo/policy/document")
        #expect(before.status == 200)
        // The new environment serves production's document under its own revision and tag.
        let copied = try client.get("/v1/apps/demo/environments/staging/policy/document")
        #expect(copied.status == 200)
        #expect(copied.text == before.text)
        #expect(copied["etag"] != before["etag"])

        let changed = try Self.changeStagingTitle(server, to: "Scan in staging")
        #expect(changed.status == 200, "\(changed.body)")
        #expect(changed.object["environment"] as? String == "staging")

        let production = try client.get("/v1/apps/demo/policy/document")
        #expect(production.text == before.text)
        #expect(production["etag"] == before["etag"])
        #expect(try client.get("/v1/apps/demo/environments/production/policy/document").text == before.text)
        let stagingDocument = try client.get("/v1/apps/demo/environments/staging/policy/document")
        #expect(stagingDocument.text.contains("Scan in staging"))
        #expect(!production.text.contains("Scan in staging"))
        // Resolved policy and decide take the environment too.
        let resolved = try client.get(
            "/v1/apps/demo/environments/staging/policy?platform=ios&os=17.4&locale=en&installId=i-1")
        #expect(resolved.status == 200, "\(resolved.text)")
        #expect(resolved.text.contains("Scan in staging"))
        let productionResolved = try client.get("/v1/apps/demo/policy?platform=ios&os=17.4&locale=en&installId=i-1")
        #expect(!productionResolved.text.contains("Scan in staging"))
        // A client asking an environment that does not exist learns which is missing.
        let unknown = try client.get("/v1/apps/demo/environments/qa/policy/document")
        #expect(unknown.status == 404)
        #expect(unknown.text.contains("unknown-environment"))
        // The admin view of production is unchanged too.
        #expect(try server.send("GET", "/v1/admin/apps/demo/policy").headers["etag"] == before["etag"])
    }

    @Test func eachEnvironmentHasItsOwnRevisionsRollbackAndAudit() throws {
        let server = try Self.serverWithStaging()
        #expect(try Self.changeStagingTitle(server, to: "First").status == 200)
        #expect(try Self.changeStagingTitle(server, to: "Second").status == 200)
        let revisions = try server.send("GET", Self.staging + "/revisions")
        let numbers = (revisions.object["revisions"] as? [[String: Any]] ?? []).compactMap { $0["number"] as? Int }
        // Revision numbers are unique per app: production has 1, staging 2 (the copy), 3 and 4.
        #expect(numbers == [4, 3, 2])
        let productionNumbers =
            (try server.send("GET", "/v1/admin/apps/demo/revisions").object["revisions"]
            as? [[String: Any]] ?? []).compactMap { $0["number"] as? Int }
        #expect(productionNumbers == [1])
        // Another environment's revision is not this one's.
        #expect(try server.send("GET", "/v1/admin/apps/demo/revisions/3").status == 404)
        #expect(try server.send("GET", Self.staging + "/revisions/1").status == 404)

        let rollback = try server.send(
            "POST", Self.staging + "/revisions/3/rollback", headers: [("If-Match", try Self.stagingETag(server))])
        #expect(rollback.status == 200, "\(rollback.body)")
        #expect(rollback.object["revision"] as? Int == 5)
        let document = try PublicClient(port: server.service.port).get(
            "/v1/apps/demo/environments/staging/policy/document")
        #expect(document.text.contains("First"))

        let stagingAudit = try server.send("GET", Self.staging + "/audit")
        let actions = (stagingAudit.object["entries"] as? [[String: Any]] ?? []).compactMap { $0["action"] as? String }
        #expect(actions == ["policy.rollback", "feature.patch", "feature.patch", "environment.create"])
        let productionAudit = try server.send("GET", "/v1/admin/apps/demo/environments/production/audit")
        let productionActions = (productionAudit.object["entries"] as? [[String: Any]] ?? []).compactMap {
            $0["action"] as? String
        }
        #expect(!productionActions.isEmpty)
        #expect(!productionActions.contains("feature.patch"))
        let filtered = try server.send("GET", "/v1/admin/audit?environment=staging&action=policy.rollback")
        #expect((filtered.object["entries"] as? [[String: Any]])?.count == 1)
    }

    @Test func settingsAreStoredPerEnvironmentAndValidated() throws {
        let server = try Self.serverWithStaging()
        let patched = try server.send(
            "PATCH", Self.staging, body: #"{"requiredApprovals": 2, "allowSelfApproval": true}"#)
        #expect(patched.status == 200, "\(patched.body)")
        #expect(patched.object["requiredApprovals"] as? Int == 2)
        #expect(patched.object["changed"] as? Bool == true)
        let stored = try PolicyRepositoryProbe.settings(server, environment: "staging")
        #expect(stored.requiredApprovals == 2 && stored.allowSelfApproval && !stored.lintStrict)
        #expect(try PolicyRepositoryProbe.settings(server, environment: "production").requiredApprovals == 0)

        let bad = try server.send("PATCH", Self.staging, body: #"{"requiredApprovals": 6, "colour": "red"}"#)
        #expect(bad.status == 422)
        let pointers = (bad.object["errors"] as? [[String: Any]] ?? []).compactMap { $0["pointer"] as? String }
        #expect(Set(pointers) == ["/requiredApprovals", "/colour"])
        let incomplete = try server.send("PUT", Self.staging, body: #"{"requiredApprovals": 1}"#)
        #expect(incomplete.status == 422)
        #expect(try PolicyRepositoryProbe.settings(server, environment: "staging").requiredApprovals == 2)

        // Production's lintStrict is today's per-app setting.
        let strict = try server.send(
            "PATCH", "/v1/admin/apps/demo", headers: [("If-Match", try server.etag())], body: #"{"lintStrict": true}"#)
        #expect(strict.status == 200, "\(strict.body)")
        #expect(try PolicyRepositoryProbe.settings(server, environment: "production").lintStrict)
        #expect(!(try PolicyRepositoryProbe.settings(server, environment: "staging").lintStrict))

        let duplicate = try server.send("POST", "/v1/admin/apps/demo/environments", body: #"{"name": "staging"}"#)
        #expect(duplicate.status == 409)
        let badName = try server.send("POST", "/v1/admin/apps/demo/environments", body: #"{"name": "Staging!"}"#)
        #expect(badName.status == 422)
        let list = try server.send("GET", "/v1/admin/apps/demo/environments")
        let names = (list.object["environments"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        #expect(names == ["production", "staging"])
        // An empty environment is listed, not served, and does not make the server unready.
        #expect(
            try server.send("POST", "/v1/admin/apps/demo/environments", body: #"{"name": "qa"}"#).status == 201)
        let qa = try server.send("GET", "/v1/admin/apps/demo/environments/qa")
        #expect(qa.object["status"] as? String == "empty")
        let client = PublicClient(port: server.service.port)
        let empty = try client.get("/v1/apps/demo/environments/qa/policy/document")
        #expect(empty.status == 404)
        #expect(empty.text.contains("urn:prelude:problem:no-live-revision"))
        let emptyPreview = try server.send("GET", "/v1/admin/apps/demo/environments/qa/preview")
        #expect(emptyPreview.status == 404)
        #expect(try client.get("/readyz").status == 200)
        // `copyFrom: null` is the same as no copyFrom; a non-string is refused naming it.
        let nullCopy = try server.send(
            "POST", "/v1/admin/apps/demo/environments", body: #"{"name": "dev", "copyFrom": null}"#)
        #expect(nullCopy.status == 201)
        #expect(nullCopy.object["status"] as? String == "empty")
        let numberCopy = try server.send(
            "POST", "/v1/admin/apps/demo/environments", body: #"{"name": "dev2", "copyFrom": 1}"#)
        #expect(numberCopy.status == 422)
        #expect(numberCopy.body.contains("/copyFrom"))
    }

    @Test func auditRefusesAnInvalidEnvironmentFilter() throws {
        let server = try Self.serverWithStaging()
        for bad in ["", "Staging", "-x"] {
            let page = try server.send("GET", "/v1/admin/audit?environment=\(bad)")
            #expect(page.status == 400, "environment=\(bad)")
            #expect(page.body.contains("/query/environment"))
        }
        #expect(try server.send("GET", "/v1/admin/audit?environment=staging").status == 200)
    }

    @Test func scopedTokensReachOnlyTheirAppsAndEnvironments() throws {
        let server = try Self.serverWithStaging()
        let created = try server.send(
            "POST", "/v1/admin/tokens",
            body: #"{"name": "stager", "scope": "write", "apps": ["demo"], "environments": ["staging"]}"#)
        #expect(created.status == 201, "\(created.body)")
        #expect(created.object["environments"] as? [String] == ["staging"])
        let token = try #require(created.object["token"] as? String)
        // A grant names apps by valid app id (openapi.yaml's AppId), like a policy's `app.id`.
        let badApp = try server.send(
            "POST", "/v1/admin/tokens", body: #"{"name": "odd", "scope": "read", "apps": ["dé mo"]}"#)
        #expect(badApp.status == 422)
        #expect(badApp.body.contains("/apps/0"))

        #expect(try server.send("GET", Self.staging + "/policy", token: token).status == 200)
        let production = try server.send("GET", "/v1/admin/apps/demo/policy", token: token)
        #expect(production.status == 403)
        #expect(production.headers["content-type"] == "application/problem+json")
        #expect(production.body.contains("missing: environment demo/production"))
        let productionByName = try server.send(
            "GET", "/v1/admin/apps/demo/environments/production/policy", token: token)
        #expect(productionByName.status == 403)
        let other = try server.send("GET", "/v1/admin/apps/other/policy", token: token)
        #expect(other.status == 403)
        #expect(other.body.contains("missing: app other"))
        #expect(try server.send("GET", "/v1/admin/tokens", token: token).status == 403)
        #expect(try server.send("GET", "/v1/admin/audit", token: token).status == 403)
        #expect(try server.send("GET", "/v1/admin/changes", token: token).status == 403)
        let list = try server.send("GET", "/v1/admin/apps/demo/environments", token: token)
        let names = (list.object["environments"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        #expect(names == ["staging"])
        let apps = try server.send("GET", "/v1/admin/apps", token: token)
        #expect((apps.object["apps"] as? [[String: Any]])?.count == 1)

        // It writes staging, and cannot promote into production or out of it.
        let write = try server.send(
            "PATCH", Self.staging + "/features/camera", token: token,
            headers: [("If-Match", try Self.stagingETag(server)), ("Content-Type", "application/merge-patch+json")],
            body: #"{"copy": {"en": {"prime": {"title": "Token write"}}}}"#)
        #expect(write.status == 200, "\(write.body)")
        let promote = try server.send(
            "POST", "/v1/admin/apps/demo/environments/production/promotions", token: token,
            headers: [("If-Match", try server.etag())], body: #"{"from": "staging"}"#)
        #expect(promote.status == 403)
        let pull = try server.send(
            "POST", Self.staging + "/promotions", token: token,
            headers: [("If-Match", try Self.stagingETag(server))], body: #"{"from": "production"}"#)
        #expect(pull.status == 403)
        #expect(pull.body.contains("missing: environment demo/production"))
        // The bootstrap token (created before environments meant anything) still reaches everything.
        #expect(try server.send("GET", "/v1/admin/apps/demo/policy").status == 200)

        let badGrant = try server.send(
            "POST", "/v1/admin/tokens",
            body: #"{"name": "x", "scope": "read", "environments": ["Bad"], "bypass": true}"#)
        #expect(badGrant.status == 422)
        let pointers = (badGrant.object["errors"] as? [[String: Any]] ?? []).compactMap { $0["pointer"] as? String }
        #expect(Set(pointers) == ["/environments/0", "/bypass"])
    }

    /// Issue 35: a staging-only token read production's live revision and ETag in `GET /v1/admin/apps`. Lists show
    /// only what a grant covers: production's members are absent, each app lists the environments granted.
    @Test func appListShowsOnlyTheGrantedEnvironments() throws {
        let server = try Self.serverWithStaging()
        let productionETag = try server.etag()
        let stagingETag = try Self.stagingETag(server)
        let created = try server.send(
            "POST", "/v1/admin/tokens",
            body: #"{"name": "stager", "scope": "read", "apps": ["demo"], "environments": ["staging"]}"#)
        let token = try #require(created.object["token"] as? String, "\(created.body)")
        let list = try server.send("GET", "/v1/admin/apps", token: token)
        #expect(list.status == 200)
        #expect(!list.body.contains(productionETag), "\(list.body)")
        let entry = try #require((list.object["apps"] as? [[String: Any]])?.first)
        #expect(entry["id"] as? String == "demo")
        for member in ["liveRevision", "etag", "status", "features", "revisionCount"] {
            #expect(entry[member] == nil, "\(member)")
        }
        let environments = try #require(entry["environments"] as? [[String: Any]])
        #expect(environments.compactMap { $0["name"] as? String } == ["staging"])
        #expect(environments.first?["etag"] as? String == stagingETag)

        // The bootstrap token (every environment) keeps production's members and sees both environments.
        let full = try server.send("GET", "/v1/admin/apps")
        let all = try #require((full.object["apps"] as? [[String: Any]])?.first)
        #expect(all["etag"] as? String == productionETag)
        #expect(
            (all["environments"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == [
                "production", "staging",
            ])
    }

    /// Webhooks that hear only environments outside a token's grant are absent from its list and not found.
    @Test func webhookListShowsOnlyWebhooksOfGrantedEnvironments() throws {
        let server = try Self.serverWithStaging()
        let store = WebhookStore(database: server.service.database)
        let stagingHook = try store.create(
            app: "demo", url: "https://hooks.example/staging", secret: "s", events: [.revisionPublished],
            environments: ["staging"], description: nil, enabled: false, actor: "test", at: 0)
        let everyHook = try store.create(
            app: "demo", url: "https://hooks.example/all", secret: "s", events: [.revisionPublished],
            description: nil, enabled: false, actor: "test", at: 0)
        let created = try server.send(
            "POST", "/v1/admin/tokens",
            body: #"{"name": "prod-reader", "scope": "read", "environments": ["production"]}"#)
        let token = try #require(created.object["token"] as? String, "\(created.body)")
        let list = try server.send("GET", "/v1/admin/apps/demo/webhooks", token: token)
        #expect(list.status == 200)
        let ids = (list.object["webhooks"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(ids == [everyHook.id], "\(list.body)")
        #expect(try server.send("GET", "/v1/admin/apps/demo/webhooks/\(stagingHook.id)", token: token).status == 404)
        let bootstrap = try server.send("GET", "/v1/admin/apps/demo/webhooks")
        #expect((bootstrap.object["webhooks"] as? [[String: Any]])?.count == 2)
    }

    /// Issue 35: a grant naming an app or environment that does not exist was accepted silently; now 422 naming each
    /// with the closest existing name, unless `allowMissing` says they come later.
    @Test func tokenGrantNamingMissingAppsOrEnvironmentsIsRefused() throws {
        let server = try Self.serverWithStaging()
        let refused = try server.send(
            "POST", "/v1/admin/tokens",
            body: #"{"name": "typo", "scope": "read", "apps": ["demoo"], "environments": ["production", "stagng"]}"#)
        #expect(refused.status == 422, "\(refused.body)")
        #expect(refused.headers["content-type"] == "application/problem+json")
        let errors = refused.object["errors"] as? [[String: Any]] ?? []
        #expect(errors.compactMap { $0["pointer"] as? String } == ["/apps/0", "/environments/1"])
        let details = errors.compactMap { $0["detail"] as? String }
        let expected =
            "no app is named 'demoo' (did you mean 'demo'?); \"allowMissing\": true grants it for an app created later"
        #expect(details.first == expected)
        #expect(details.last?.contains("did you mean 'staging'?") == true, "\(details)")
        #expect(try TokenStore(database: server.service.database).list().map(\.name).contains("typo") == false)

        let later = try server.send(
            "POST", "/v1/admin/tokens",
            body: #"{"name": "later", "scope": "read", "apps": ["newapp"], "allowMissing": true}"#)
        #expect(later.status == 201, "\(later.body)")
        let badFlag = try server.send(
            "POST", "/v1/admin/tokens", body: #"{"name": "flag", "scope": "read", "allowMissing": "yes"}"#)
        #expect(badFlag.status == 422)
        #expect(badFlag.body.contains("/allowMissing"))
    }

    @Test func promotionAnswersTheDiffAndRefusesAStaleIfMatch() throws {
        let server = try Self.serverWithStaging()
        #expect(try Self.changeStagingTitle(server, to: "Promoted title").status == 200)
        let productionETag = try server.etag()
        // Production moves on after the promoter read its ETag: the promotion is stale.
        let moved = try server.send(
            "PATCH", "/v1/admin/apps/demo/features/microphone",
            headers: [("If-Match", productionETag), ("Content-Type", "application/merge-patch+json")],
            body: #"{"copy": {"en": {"prime": {"title": "Production only"}}}}"#)
        #expect(moved.status == 200, "\(moved.body)")
        let stale = try server.send(
            "POST", "/v1/admin/apps/demo/environments/production/promotions", headers: [("If-Match", productionETag)],
            body: #"{"from": "staging", "features": ["camera"], "parts": ["copy"]}"#)
        #expect(stale.status == 412)
        #expect(stale.headers["etag"] == (try server.etag()))
        let missingIfMatch = try server.send(
            "POST", "/v1/admin/apps/demo/environments/production/promotions", body: #"{"from": "staging"}"#)
        #expect(missingIfMatch.status == 428)

        let promoted = try server.send(
            "POST", "/v1/admin/apps/demo/environments/production/promotions",
            headers: [("If-Match", try server.etag())],
            body: #"{"from": "staging", "features": ["camera"], "parts": ["copy"], "message": "camera copy"}"#)
        #expect(promoted.status == 200, "\(promoted.body)")
        let changes = promoted.object["changes"] as? [[String: Any]] ?? []
        #expect(changes.count == 1)
        #expect(changes.first?["pointer"] as? String == "/features/camera/copy/en/prime/title")
        #expect(promoted.object["from"] as? String == "staging")
        #expect(promoted.object["sourceRevision"] as? Int == 3)
        let client = PublicClient(port: server.service.port)
        let production = try client.get("/v1/apps/demo/policy/document").text
        // Only the chosen part moved: production keeps its own microphone change.
        #expect(production.contains("Promoted title") && production.contains("Production only"))
        let audit = try server.send("GET", "/v1/admin/apps/demo/environments/production/audit?action=promotion")
        let entry = try #require((audit.object["entries"] as? [[String: Any]])?.first)
        #expect((entry["detail"] as? [String: Any])?["from"] as? String == "staging")

        let unknownFeature = try server.send(
            "POST", "/v1/admin/apps/demo/environments/production/promotions",
            headers: [("If-Match", try server.etag())], body: #"{"from": "staging", "features": ["contacts"]}"#)
        #expect(unknownFeature.status == 422)
        #expect(unknownFeature.body.contains("/features/0"))
        // A whole revision: production becomes staging's document.
        let whole = try server.send(
            "POST", "/v1/admin/apps/demo/environments/production/promotions",
            headers: [("If-Match", try server.etag())], body: #"{"from": "staging"}"#)
        #expect(whole.status == 200, "\(whole.body)")
        #expect(
            try client.get("/v1/apps/demo/policy/document").text
                == (try client.get("/v1/apps/demo/environments/staging/policy/document").text))
    }

    @Test func eventsAndResultsArePerEnvironment() throws {
        let server = try Self.serverWithStaging()
        let client = PublicClient(port: server.service.port)
        let event =
            #"{"events":[{"id":"e-1","installId":"install-1","type":"primeShown","feature":"microphone","#
            + #""experiment":"mic","variant":"VARIANT","occurredAt":"2026-11-22T12:30:00Z"}]}"#
        // The install's deterministic variant, as the staging document assigns it.
        let resolved = try client.get(
            "/v1/apps/demo/environments/staging/policy?platform=ios&os=17.4&locale=en&installId=install-1")
        let variant = try #require(
            ((try? JSONSerialization.jsonObject(with: Data(resolved.body))) as? [String: Any]).flatMap {
                (($0["experiments"] as? [[String: Any]])?.first?["variant"] as? String)
            })
        let body = event.replacingOccurrences(of: "VARIANT", with: variant)
        let stored = try client.post("/v1/apps/demo/environments/staging/events", json: body)
        #expect(stored.status == 202, "\(stored.text)")
        let counts = try server.service.database.read { db in
            try db.query("SELECT environment, sum(exposed) AS n FROM experiment_funnel_counts GROUP BY environment")
                .map { (try $0.get("environment", as: String.self), try $0.get("n", as: Int64.self)) }
        }
        #expect(counts.map(\.0) == ["staging"])
        let staging = try server.send("GET", Self.staging + "/experiments/mic/results")
        #expect(staging.status == 200, "\(staging.body)")
        let production = try server.send("GET", "/v1/admin/apps/demo/experiments/mic/results")
        #expect(production.status == 200, "\(production.body)")
        #expect(staging.body != production.body)
        let environments = try server.service.database.read { db in
            try db.query("SELECT DISTINCT environment FROM events").map { try $0.get(0, as: String.self) }
        }
        #expect(environments == ["staging"])
        let unknown = try client.post("/v1/apps/demo/environments/qa/events", json: body)
        #expect(unknown.status == 404)
    }
}

/// What the change-request path reads (``PreludeStore/PolicyRepository/environment(app:name:)``).
enum PolicyRepositoryProbe {
    static func settings(_ server: AdminServer, environment: String) throws -> EnvironmentSettingsView {
        let stored = try #require(
            try PolicyRepository(database: server.service.database).environment(app: "demo", name: environment))
        return EnvironmentSettingsView(
            requiredApprovals: stored.requiredApprovals, allowSelfApproval: stored.allowSelfApproval,
            lintStrict: stored.lintStrict)
    }

    struct EnvironmentSettingsView {
        var requiredApprovals: Int
        var allowSelfApproval: Bool
        var lintStrict: Bool
    }
}
