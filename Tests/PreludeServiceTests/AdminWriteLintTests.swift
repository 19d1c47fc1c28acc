import Foundation
import Testing

@testable import PreludeService

/// Issue 17: lint findings in every write's answer, strict lint per app, strict query parameters, quoted If-Match.
@Suite("Admin write lint and strict parameters")
struct AdminWriteLintTests {
    static let germanAllow =
        #"{"copy": {"de": {"prime": {"title": "Notizen aufnehmen", "message": "{appName} nimmt Sprachnotizen auf.", "continueLabel": "Erlauben"}}}}"#

    @Test func aPatchWithAGermanAllowLabelAnswersItsLintError() throws {
        let server = try AdminServer()
        let response = try server.send(
            "PATCH", "/v1/admin/apps/demo/features/microphone", headers: [("If-Match", try server.etag())],
            body: Self.germanAllow)
        #expect(response.status == 200, "\(response.body)")
        let lint = try #require(response.object["lint"] as? [[String: Any]])
        #expect(
            lint.contains {
                $0["ruleId"] as? String == "PA-2" && $0["severity"] as? String == "error"
                    && $0["pointer"] as? String == "/features/microphone/copy/de/prime/continueLabel"
            }, "\(lint)")
    }

    /// Issue 35: a write's findings say which the replaced policy already had, so an edit is not answered with
    /// findings about things it did not touch as if it had caused them.
    @Test func aWriteMarksTheFindingsThePolicyAlreadyHad() throws {
        let server = try AdminServer()
        let introduced = try server.send(
            "PATCH", "/v1/admin/apps/demo/features/microphone", headers: [("If-Match", try server.etag())],
            body: Self.germanAllow)
        let first = try #require(introduced.object["lint"] as? [[String: Any]])
        let german = try #require(first.first { $0["ruleId"] as? String == "PA-2" })
        #expect(german["preexisting"] as? Bool == false, "\(first)")
        let unrelated = try server.send(
            "PATCH", "/v1/admin/apps/demo/features/camera", headers: [("If-Match", try server.etag())],
            body: #"{"cadence": {"prime": {"maxShows": 2}}}"#)
        #expect(unrelated.status == 200, "\(unrelated.body)")
        let second = try #require(unrelated.object["lint"] as? [[String: Any]])
        #expect(second.first { $0["ruleId"] as? String == "PA-2" }?["preexisting"] as? Bool == true, "\(second)")
        #expect(second.allSatisfy { $0["preexisting"] as? Bool == true }, "\(second)")
    }

    @Test func everyKindOfWriteAnswersLint() throws {
        let server = try AdminServer()
        let put = try server.send(
            "PUT", "/v1/admin/apps/demo/policy", headers: [("If-Match", try server.etag())],
            body: AdminServer.policyText.replacingOccurrences(of: "\"Continue\"", with: "\"OK\""))
        #expect(put.status == 200, "\(put.body)")
        #expect((put.object["lint"] as? [[String: Any]])?.contains { $0["ruleId"] as? String == "PA-2" } == true)
        let rollback = try server.send(
            "POST", "/v1/admin/apps/demo/revisions/1/rollback", headers: [("If-Match", try server.etag())])
        #expect(rollback.status == 200, "\(rollback.body)")
        #expect(rollback.object["lint"] is [Any])
        let unchanged = try server.send(
            "PATCH", "/v1/admin/apps/demo/features/camera", headers: [("If-Match", try server.etag())], body: "{}")
        #expect(unchanged.object["changed"] as? Bool == false)
        #expect(unchanged.object["lint"] is [Any])
    }

    @Test func strictModeRefusesLintErrorsAndWritesNothing() throws {
        let server = try AdminServer()
        let noIfMatch = try server.send("PATCH", "/v1/admin/apps/demo", body: #"{"lintStrict": true}"#)
        #expect(noIfMatch.status == 428)
        let read = try #require(
            try server.send("POST", "/v1/admin/tokens", body: #"{"name": "viewer", "scope": "read"}"#).object["token"]
                as? String)
        #expect(
            try server.send(
                "PATCH", "/v1/admin/apps/demo", token: read, headers: [("If-Match", try server.etag())],
                body: #"{"lintStrict": true}"#
            ).status == 403)
        let badValue = try server.send(
            "PATCH", "/v1/admin/apps/demo", headers: [("If-Match", try server.etag())], body: #"{"lintStrict": "yes"}"#)
        #expect(badValue.status == 422)
        #expect((badValue.object["errors"] as? [[String: Any]])?.first?["pointer"] as? String == "/lintStrict")
        let on = try server.send(
            "PATCH", "/v1/admin/apps/demo", headers: [("If-Match", try server.etag())], body: #"{"lintStrict": true}"#)
        #expect(on.status == 200, "\(on.body)")
        #expect(on.object["lintStrict"] as? Bool == true)
        #expect(try server.send("GET", "/v1/admin/apps/demo").object["lintStrict"] as? Bool == true)

        let before = try server.dump()
        let refused = try server.send(
            "PATCH", "/v1/admin/apps/demo/features/microphone", headers: [("If-Match", try server.etag())],
            body: Self.germanAllow)
        #expect(refused.status == 422, "\(refused.body)")
        #expect(refused.headers["content-type"] == "application/problem+json")
        #expect(refused.object["type"] as? String == "urn:prelude:problem:lint-errors")
        let errors = try #require(refused.object["errors"] as? [[String: Any]])
        #expect(
            errors.contains {
                $0["pointer"] as? String == "/features/microphone/copy/de/prime/continueLabel"
                    && $0["code"] as? String == "lint.PA-2"
            }, "\(errors)")
        #expect(try server.dump() == before)

        // A warning alone does not refuse (an unknown continue label is PA-2 warning).
        let warning = try server.send(
            "PATCH", "/v1/admin/apps/demo/features/microphone", headers: [("If-Match", try server.etag())],
            body: #"{"copy": {"en": {"prime": {"continueLabel": "Go on"}}}}"#)
        #expect(warning.status == 200, "\(warning.body)")

        let off = try server.send(
            "PATCH", "/v1/admin/apps/demo", headers: [("If-Match", try server.etag())], body: #"{"lintStrict": false}"#)
        #expect(off.status == 200)
        let accepted = try server.send(
            "PATCH", "/v1/admin/apps/demo/features/microphone", headers: [("If-Match", try server.etag())],
            body: Self.germanAllow)
        #expect(accepted.status == 200)
        let audit = try server.send("GET", "/v1/admin/audit?action=app.settings")
        #expect((audit.object["entries"] as? [Any])?.count == 2, "\(audit.body)")
    }

    @Test(arguments: [
        ("/v1/admin/apps/demo/revisions?limt=1", "/query/limt"),
        ("/v1/admin/audit?action=feature.pach", "/query/action"),
        ("/v1/admin/audit?limit=2&limit=3", "/query/limit"),
        ("/v1/admin/apps?verbose=1", "/query/verbose"),
        ("/v1/admin/apps/demo/experiments/mic/results?minimumEfect=0.1", "/query/minimumEfect"),
        ("/v1/admin/apps/demo/policy?etag=1", "/query/etag"),
    ])
    func unknownOrWrongQueryParametersAre400NamingThem(path: String, pointer: String) throws {
        let server = try AdminServer()
        let response = try server.send("GET", path)
        #expect(response.status == 400, "\(response.body)")
        #expect(response.headers["content-type"] == "application/problem+json")
        let errors = try #require(response.object["errors"] as? [[String: Any]])
        #expect(errors.first?["pointer"] as? String == pointer, "\(errors)")
    }

    @Test func typosGetASuggestionAndKnownParametersStillWork() throws {
        let server = try AdminServer()
        let typo = try server.send("GET", "/v1/admin/audit?action=feature.pach")
        #expect(typo.body.contains("feature.patch"))
        #expect(try server.send("GET", "/v1/admin/apps/demo/revisions?limit=1&pretty").status == 200)
        #expect(try server.send("GET", "/v1/admin/audit?action=feature.patch&limit=5").status == 200)
        let write = try server.send(
            "PATCH", "/v1/admin/apps/demo/features/camera?mesage=x", headers: [("If-Match", try server.etag())],
            body: #"{"cadence": {"prime": {"maxShows": 4}}}"#)
        #expect(write.status == 400)
    }

    @Test(arguments: ["abc", "W/abc", "\"abc", "abc\""])
    func unquotedIfMatchIs400NotStale(value: String) throws {
        let server = try AdminServer()
        let etag = try server.etag()
        let unquoted = value.replacingOccurrences(of: "abc", with: etag.replacingOccurrences(of: "\"", with: ""))
        let before = try server.dump()
        let response = try server.send(
            "PATCH", "/v1/admin/apps/demo/features/camera", headers: [("If-Match", unquoted)],
            body: #"{"cadence": {"prime": {"maxShows": 4}}}"#)
        #expect(response.status == 400, "\(response.body)")
        #expect(response.body.contains("quotes"))
        #expect(try server.dump() == before)
    }
}

extension AdminWriteLintTests {
    /// A rollback publishes like any write (PublishChecks): under strict lint, rolling back to a revision with a
    /// lint error, written before the app turned strict, is refused and changes nothing (issue 24).
    @Test func aRollbackGoesThroughThePublishChecks() throws {
        let server = try AdminServer()
        let patched = try server.send(
            "PATCH", "/v1/admin/apps/demo/features/microphone", headers: [("If-Match", try server.etag())],
            body: Self.germanAllow)
        #expect(patched.status == 200, "\(patched.body)")
        let lintFailing = try #require(patched.object["revision"] as? Int)
        let fixed = try server.send(
            "POST", "/v1/admin/apps/demo/revisions/1/rollback", headers: [("If-Match", try server.etag())])
        #expect(fixed.status == 200, "\(fixed.body)")
        let strict = try server.send(
            "PATCH", "/v1/admin/apps/demo", headers: [("If-Match", try server.etag())], body: #"{"lintStrict": true}"#)
        #expect(strict.status == 200, "\(strict.body)")

        let before = try server.dump()
        let refused = try server.send(
            "POST", "/v1/admin/apps/demo/revisions/\(lintFailing)/rollback", headers: [("If-Match", try server.etag())])
        #expect(refused.status == 422, "\(refused.body)")
        #expect(refused.object["type"] as? String == "urn:prelude:problem:lint-errors")
        #expect(try server.dump() == before)
    }
}
