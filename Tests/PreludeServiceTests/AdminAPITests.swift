import Foundation
import PreludeStorage
import Testing

@testable import PreludeService

/// The admin API over real sockets: auth matrix, If-Match race, refused writes, history, audit, listeners.
@Suite struct AdminAPITests {
    @Test func authMatrix() throws {
        let server = try AdminServer()
        let created = try server.send("POST", "/v1/admin/tokens", body: #"{"name": "viewer", "scope": "read"}"#)
        #expect(created.status == 201)
        let read = try #require(created.object["token"] as? String)
        let old = try #require(
            try server.send("POST", "/v1/admin/tokens", body: #"{"name": "old", "scope": "write"}"#).object["token"]
                as? String)
        #expect(try server.send("DELETE", "/v1/admin/tokens/old").status == 200)
        let etag = try server.etag()
        let patch = #"{"cadence": {"prime": {"maxShows": 4}}}"#
        let write: [(String, String)] = [("If-Match", etag), ("Content-Type", "application/merge-patch+json")]

        let none = try server.send(
            "PATCH", "/v1/admin/apps/demo/features/camera", token: nil, headers: write, body: patch)
        #expect(none.status == 401)
        #expect(none.headers["www-authenticate"] == #"Bearer realm="prelude""#)
        for token in [AdminServer.secret + "x", "prl_" + String(repeating: "A", count: 43), old] {
            let response = try server.send(
                "PATCH", "/v1/admin/apps/demo/features/camera", token: token, headers: write, body: patch)
            #expect(response.status == 401)
            #expect(response.headers["www-authenticate"] == #"Bearer realm="prelude", error="invalid_token""#)
        }
        let forbidden = try server.send(
            "PATCH", "/v1/admin/apps/demo/features/camera", token: read, headers: write, body: patch)
        #expect(forbidden.status == 403)
        #expect(forbidden.headers["www-authenticate"]?.contains(#"error="insufficient_scope""#) == true)
        #expect(try server.send("GET", "/v1/admin/apps/demo/policy", token: read).status == 200)
        #expect(try server.send("GET", "/v1/admin/tokens", token: read).status == 403)
        #expect(
            try server.send("PATCH", "/v1/admin/apps/demo/features/camera", headers: write, body: patch).status == 200)
        #expect(
            !server.logLines.all.contains { $0.contains(read) || $0.contains(AdminServer.secret) || $0.contains(old) })
    }

    @Test func repeatedFailuresFromOneAddressGet429ButAValidTokenStillGets200() throws {
        let server = try AdminServer()
        for _ in 0..<10 { #expect(try server.send("GET", "/v1/admin/apps", token: "wrong-token").status == 401) }
        let limited = try server.send("GET", "/v1/admin/apps", token: "wrong-token")
        #expect(limited.status == 429)
        #expect(Int(limited.headers["retry-after"] ?? "") ?? 0 >= 1)
        // Over the live HTTP path too: the operator with the right token from the same address is not locked out.
        #expect(try server.send("GET", "/v1/admin/apps").status == 200)
        #expect(try server.send("GET", "/v1/admin/apps", token: "wrong-token").status == 429)
    }

    @Test func noTokenAtAllAnswers401AndTheLogSaysHowToCreateOne() throws {
        let server = try AdminServer { $0.adminToken = nil }
        let response = try server.send("GET", "/v1/admin/apps", token: nil)
        #expect(response.status == 401)
        #expect(response.body.contains("prelude token create"))
        #expect(server.logLines.all.contains { $0.contains("prelude token create --name NAME --scope write") })
    }

    @Test func ifMatchRaceHasExactlyOneWinnerAndTheLoserCanMergeAndRetry() throws {
        let server = try AdminServer()
        for round in 0..<4 {
            let etag = try server.etag()
            let cameraTitle = "Camera round \(round)."
            let micTitle = "Microphone round \(round)."
            let headers = [("If-Match", etag), ("Content-Type", "application/merge-patch+json")]
            let requests = [
                AdminRequest.bytes(
                    "PATCH", "/v1/admin/apps/demo/features/camera", token: AdminServer.secret, headers: headers,
                    body: #"{"copy": {"en": {"prime": {"title": "\#(cameraTitle)"}}}}"#),
                AdminRequest.bytes(
                    "PATCH", "/v1/admin/apps/demo/features/microphone", token: AdminServer.secret, headers: headers,
                    body: #"{"copy": {"en": {"prime": {"title": "\#(micTitle)"}}}}"#),
            ]
            let responses = try TestTransport.live(port: server.adminPort).exchangeConcurrently(requests)
            #expect(responses.map(\.status).sorted() == [200, 412])
            let loser = try #require(responses.firstIndex { $0.status == 412 })
            let loserTitle = loser == 0 ? cameraTitle : micTitle
            // Nothing of the loser's body is stored, in any revision.
            let documents = try server.service.database.read { db in
                try db.query("SELECT document FROM policy_revisions").map { try $0.get("document", as: String.self) }
            }
            #expect(!documents.contains { $0.contains(loserTitle) })
            #expect(responses[loser].headers["etag"] == responses[1 - loser].headers["etag"])
            // Re-read, merge (the patch applies to the new live policy), retry.
            let retry = try server.send(
                "PATCH", "/v1/admin/apps/demo/features/\(loser == 0 ? "camera" : "microphone")",
                headers: [("If-Match", try server.etag()), ("Content-Type", "application/merge-patch+json")],
                body: String(decoding: requests[loser].split(separator: 0x0A).last ?? [], as: UTF8.self))
            #expect(retry.status == 200)
            let policy = try server.send("GET", "/v1/admin/apps/demo/policy").body
            #expect(policy.contains(cameraTitle) && policy.contains(micTitle))
        }
    }

    /// Every kind of refused write, each checked to leave every table (and the checkpointed file) unchanged.
    @Test func refusedWritesChangeNothing() throws {
        let server = try AdminServer()
        let read = try #require(
            try server.send("POST", "/v1/admin/tokens", body: #"{"name": "viewer", "scope": "read"}"#).object["token"]
                as? String)
        #expect(try server.send("GET", "/v1/admin/apps", token: read).status == 200)  // its last_used_at is now set
        let etag = try server.etag()
        #expect(
            try server.send(
                "PATCH", "/v1/admin/apps/demo/features/camera", headers: [("If-Match", etag)],
                body: #"{"cadence": {"prime": {"maxShows": 4}}}"#
            ).status == 200)
        let stale = etag
        let live = try server.etag()
        let valid = AdminServer.policyText
        let json = ("Content-Type", "application/json")
        let patch = ("Content-Type", "application/merge-patch+json")
        let cases: [(String, String, String, [(String, String)], String?, String?, Int)] = [
            ("no If-Match", "PUT", "/v1/admin/apps/demo/policy", [json], valid, AdminServer.secret, 428),
            (
                "stale If-Match", "PUT", "/v1/admin/apps/demo/policy", [("If-Match", stale), json], valid,
                AdminServer.secret, 412
            ),
            (
                "weak If-Match", "PUT", "/v1/admin/apps/demo/policy", [("If-Match", "W/" + live), json], valid,
                AdminServer.secret, 412
            ),
            (
                "not JSON", "PUT", "/v1/admin/apps/demo/policy", [("If-Match", live), json], #"{"schemaVersion": 1,"#,
                AdminServer.secret, 400
            ),
            (
                "wrong types", "PUT", "/v1/admin/apps/demo/policy", [("If-Match", live), json],
                valid.replacingOccurrences(of: #""schemaVersion": 1"#, with: #""schemaVersion": "1""#),
                AdminServer.secret, 422
            ),
            (
                "validation", "PATCH", "/v1/admin/apps/demo/features/camera", [("If-Match", live), patch],
                #"{"cadence": {"prime": {"maxShows": 99}}, "stratgey": "prime"}"#, AdminServer.secret, 422
            ),
            (
                "other app id", "PUT", "/v1/admin/apps/demo/policy", [("If-Match", live), json],
                valid.replacingOccurrences(of: #""id": "demo""#, with: #""id": "other""#), AdminServer.secret, 422
            ),
            (
                "wrong media type", "PUT", "/v1/admin/apps/demo/policy",
                [("If-Match", live), ("Content-Type", "text/plain")], valid, AdminServer.secret, 415
            ),
            (
                "JSON in another charset", "PUT", "/v1/admin/apps/demo/policy",
                [("If-Match", live), ("Content-Type", "application/json; charset=latin1")], valid, AdminServer.secret,
                415
            ),
            (
                "oversize", "PUT", "/v1/admin/apps/demo/policy", [("If-Match", live), json],
                String(repeating: " ", count: AdminAPI.maxBodySize + 1), AdminServer.secret, 413
            ),
            (
                "feature under test", "DELETE", "/v1/admin/apps/demo/features/microphone", [("If-Match", live)], nil,
                AdminServer.secret, 422
            ),
            (
                "unknown feature name", "PUT", "/v1/admin/apps/demo/features/teleport", [("If-Match", live), json],
                "{}", AdminServer.secret, 422
            ),
            (
                "invalid new app", "POST", "/v1/admin/apps", [json], #"{"schemaVersion": 1, "app": {"id": "bad id!"}}"#,
                AdminServer.secret, 422
            ),
            ("existing app", "POST", "/v1/admin/apps", [json], valid, AdminServer.secret, 409),
            ("stale app delete", "DELETE", "/v1/admin/apps/demo", [("If-Match", stale)], nil, AdminServer.secret, 412),
            (
                "unknown revision", "POST", "/v1/admin/apps/demo/revisions/99/rollback", [("If-Match", live)], nil,
                AdminServer.secret, 404
            ),
            ("no token", "PUT", "/v1/admin/apps/demo/policy", [("If-Match", live), json], valid, nil, 401),
            ("read token", "PUT", "/v1/admin/apps/demo/policy", [("If-Match", live), json], valid, read, 403),
            (
                "bad token request", "POST", "/v1/admin/tokens", [json], #"{"name": "x y", "scope": "admin"}"#,
                AdminServer.secret, 422
            ),
        ]
        for (name, method, path, headers, body, token, status) in cases {
            let tables = try server.dump()
            let bytes = try server.checkpointedFileBytes()
            let response = try server.send(method, path, token: token, headers: headers, body: body)
            #expect(response.status == status, "\(name): \(response.body)")
            if status != 413 {
                #expect(response.headers["content-type"] == "application/problem+json", "\(name)")
            }
            #expect(try server.dump() == tables, "\(name) changed a table")
            #expect(try server.checkpointedFileBytes() == bytes, "\(name) changed the file")
        }
        // Validation answers list every problem with its pointer.
        let invalid = try server.send(
            "PATCH", "/v1/admin/apps/demo/features/camera", headers: [("If-Match", live), patch],
            body: #"{"cadence": {"prime": {"maxShows": 99}}, "stratgey": "prime"}"#)
        let pointers = (invalid.object["errors"] as? [[String: Any]] ?? []).compactMap { $0["pointer"] as? String }
        #expect(invalid.status == 422, "\(invalid.body)")
        #expect(pointers == ["/features/camera/cadence/prime/maxShows", "/features/camera/stratgey"])
    }

    @Test func validateIsADryRunWithProblemsLintAndDiff() throws {
        let server = try AdminServer()
        #expect(try server.send("GET", "/v1/admin/apps").status == 200)  // the token's last_used_at is now set
        let before = try server.dump()
        let candidate = AdminServer.policyText
            .replacingOccurrences(of: "Scan documents", with: "Allow camera access")
            .replacingOccurrences(of: #""maxShows""#, with: #""maxShows""#)
        let response = try server.send("POST", "/v1/admin/apps/demo/policy/validate", body: candidate)
        #expect(response.status == 200)
        #expect(response.object["valid"] as? Bool == true)
        let diff = try #require(response.object["diff"] as? [[String: Any]])
        #expect(diff.count == 1)
        #expect(diff.first?["pointer"] as? String == "/features/camera/copy/en/prime/title")
        #expect(diff.first?["from"] as? String == "Scan documents")
        #expect(diff.first?["to"] as? String == "Allow camera access")
        #expect(response.object["lint"] is [Any])
        let broken = try server.send(
            "POST", "/v1/admin/apps/demo/policy/validate", body: #"{"schemaVersion": 2, "app": {"id": "demo"}}"#)
        #expect(broken.object["valid"] as? Bool == false)
        // The list has the name and entry members of a refused request's problem+json `errors`.
        #expect(broken.object["problems"] == nil)
        #expect(
            ((broken.object["errors"] as? [[String: Any]]) ?? []).contains {
                $0["pointer"] as? String == "/schemaVersion" && $0["code"] as? String == "schemaVersion.unsupported"
                    && ($0["detail"] as? String)?.isEmpty == false
            })
        #expect(try server.dump() == before)
    }

    @Test func rollbackDiffAndAuditContent() throws {
        let server = try AdminServer()
        let alice = try #require(
            try server.send("POST", "/v1/admin/tokens", body: #"{"name": "alice", "scope": "write"}"#).object["token"]
                as? String)
        let original = try server.send("GET", "/v1/admin/apps/demo/policy").body
        let patched = try server.send(
            "PATCH", "/v1/admin/apps/demo/features/camera?message=fewer+asks", token: alice,
            headers: [("If-Match", try server.etag()), ("Content-Type", "application/merge-patch+json")],
            body: #"{"cadence": {"prime": {"maxShows": 2}}}"#)
        #expect(patched.status == 200)
        #expect(patched.object["revision"] as? Int == 2)

        let diff = try server.send("GET", "/v1/admin/apps/demo/revisions/1/diff/2")
        let changes = try #require(diff.object["changes"] as? [[String: Any]])
        #expect(changes.count == 1)
        #expect(changes.first?["op"] as? String == "add")
        #expect(changes.first?["pointer"] as? String == "/features/camera/cadence")

        let rollback = try server.send(
            "POST", "/v1/admin/apps/demo/revisions/1/rollback", token: alice, headers: [("If-Match", try server.etag())]
        )
        #expect(rollback.status == 200)
        #expect(rollback.object["revision"] as? Int == 3)
        #expect(try server.send("GET", "/v1/admin/apps/demo/policy").body == original)
        #expect(
            (try server.send("GET", "/v1/admin/apps/demo/revisions/1/diff/live").object["changes"] as? [Any])?.isEmpty
                == true)
        #expect(
            (try server.send("GET", "/v1/admin/apps/demo/revisions/2/diff?against=3").object["changes"] as? [Any])?
                .count == 1)
        let revision = try server.send("GET", "/v1/admin/apps/demo/revisions/2")
        #expect(revision.object["author"] as? String == "alice")
        #expect(revision.object["message"] as? String == "fewer asks")

        let audit = try server.send("GET", "/v1/admin/audit?app=demo")
        let entries = try #require(audit.object["entries"] as? [[String: Any]])
        #expect(entries.map { $0["action"] as? String } == ["policy.rollback", "feature.patch", "app.seed"])
        let patchEntry = entries[1]
        #expect(patchEntry["actor"] as? String == "alice")
        #expect(patchEntry["revision"] as? Int == 2)
        let detail = try #require(patchEntry["detail"] as? [String: Any])
        #expect(detail["feature"] as? String == "camera")
        #expect(detail["message"] as? String == "fewer asks")
        let recorded = try #require(detail["changes"] as? [[String: Any]])
        #expect(recorded.first?["pointer"] as? String == "/features/camera/cadence")
        let rollbackDetail = try #require(entries[0]["detail"] as? [String: Any])
        #expect(rollbackDetail["rollbackTo"] as? Int == 1)
        #expect(rollbackDetail["from"] as? Int == 2)
        #expect((rollbackDetail["changes"] as? [Any])?.count == 1)

        // Filters and paging.
        let page1 = try server.send("GET", "/v1/admin/audit?limit=1")
        let cursor = try #require(page1.object["nextCursor"] as? String)
        let page2 = try server.send("GET", "/v1/admin/audit?limit=1&cursor=\(cursor)")
        #expect((page2.object["entries"] as? [[String: Any]])?.first?["id"] as? Int == Int(cursor)! - 1)
        #expect(
            (try server.send("GET", "/v1/admin/audit?since=2100-01-01").object["entries"] as? [Any])?.isEmpty == true)
        #expect(
            (try server.send("GET", "/v1/admin/audit?until=2000-01-01T00:00:00Z").object["entries"] as? [Any])?.isEmpty
                == true)
        #expect(try server.send("GET", "/v1/admin/audit?since=yesterday").status == 400)
        #expect(try server.send("GET", "/v1/admin/audit?limit=0").status == 400)
    }

    @Test func revisionsArePagedNewestFirst() throws {
        let server = try AdminServer()
        for shows in 1...3 {
            #expect(
                try server.send(
                    "PATCH", "/v1/admin/apps/demo/features/camera",
                    headers: [("If-Match", try server.etag()), ("Content-Type", "application/merge-patch+json")],
                    body: #"{"cadence": {"prime": {"maxShows": \#(shows)}}}"#
                ).status == 200)
        }
        let first = try server.send("GET", "/v1/admin/apps/demo/revisions?limit=3")
        #expect((first.object["revisions"] as? [[String: Any]])?.map { $0["number"] as? Int } == [4, 3, 2])
        #expect((first.object["revisions"] as? [[String: Any]])?.first?["live"] as? Bool == true)
        let cursor = try #require(first.object["nextCursor"] as? String)
        let second = try server.send("GET", "/v1/admin/apps/demo/revisions?limit=3&cursor=\(cursor)")
        #expect((second.object["revisions"] as? [[String: Any]])?.map { $0["number"] as? Int } == [1])
        #expect(second.object["nextCursor"] is NSNull)
        #expect(try server.send("GET", "/v1/admin/apps/nope/revisions").status == 404)
        #expect(try server.send("GET", "/v1/admin/apps/demo/revisions/0").status == 400)
        #expect(try server.send("GET", "/v1/admin/apps/demo/revisions/9").status == 404)
    }

    @Test func featuresCanBeReadReplacedCreatedAndDeleted() throws {
        let server = try AdminServer()
        let camera = try server.send("GET", "/v1/admin/apps/demo/features/camera")
        #expect(camera.status == 200)
        #expect(camera.headers["etag"] == (try server.etag()))
        let replaced = try server.send(
            "PUT", "/v1/admin/apps/demo/features/photos", headers: [("If-Match", try server.etag())],
            body:
                #"{"copy": {"en": {"prime": {"title": "Pick photos", "message": "{appName} attaches photos."}, "settings": {"title": "Photos are off", "message": "Open Settings to attach."}}}}"#
        )
        #expect(replaced.status == 201, "\(replaced.body)")
        #expect(try server.send("GET", "/v1/admin/apps/demo/features/photos").status == 200)
        let deleted = try server.send(
            "DELETE", "/v1/admin/apps/demo/features/photos", headers: [("If-Match", try server.etag())])
        #expect(deleted.status == 200)
        #expect(try server.send("GET", "/v1/admin/apps/demo/features/photos").status == 404)
        #expect(try server.send("GET", "/v1/admin/apps/demo/features/camera?pretty").body.contains("\n  \"copy\": {"))
    }

    @Test func appsCanBeCreatedListedAndDeleted() throws {
        let server = try AdminServer()
        let document = AdminServer.policyText.replacingOccurrences(of: #""id": "demo""#, with: #""id": "notes""#)
        let created = try server.send("POST", "/v1/admin/apps", body: document)
        #expect(created.status == 201)
        #expect(created.headers["location"] == "/v1/admin/apps/notes/policy")
        let list = try server.send("GET", "/v1/admin/apps")
        #expect((list.object["apps"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["demo", "notes"])
        #expect(try server.send("DELETE", "/v1/admin/apps/notes").status == 428)
        #expect(
            try server.send("DELETE", "/v1/admin/apps/notes", headers: [("If-Match", try server.etag("notes"))]).status
                == 200)
        #expect(try server.send("GET", "/v1/admin/apps/notes").status == 404)
        let audit = try server.send("GET", "/v1/admin/audit?app=notes")
        #expect(
            (audit.object["entries"] as? [[String: Any]])?.map { $0["action"] as? String } == [
                "app.delete", "app.create",
            ])
    }

    @Test func tokensAPICreatesListsAndRevokes() throws {
        let server = try AdminServer()
        let created = try server.send("POST", "/v1/admin/tokens?pretty", body: #"{"name": "ci", "scope": "read"}"#)
        #expect(created.status == 201)
        #expect(created.headers["cache-control"] == "no-store")
        let secret = try #require(created.object["token"] as? String)
        #expect(try server.send("GET", "/v1/admin/apps", token: secret).status == 200)
        let list = try server.send("GET", "/v1/admin/tokens")
        #expect(!list.body.contains(secret))
        #expect(
            (list.object["tokens"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["bootstrap", "ci"])
        #expect(try server.send("POST", "/v1/admin/tokens", body: #"{"name": "ci", "scope": "read"}"#).status == 409)
        #expect(try server.send("DELETE", "/v1/admin/tokens/ci").status == 200)
        #expect(try server.send("DELETE", "/v1/admin/tokens/ci").status == 404)
        #expect(try server.send("GET", "/v1/admin/apps", token: secret).status == 401)
    }

    @Test func separateAdminListenerServesOnlyAdminRoutes() throws {
        let server = try AdminServer { $0.adminPort = 0 }
        let adminPort = try #require(server.service.adminPort)
        #expect(adminPort != server.service.port)
        #expect(try server.send("GET", "/v1/admin/apps", port: server.service.port).status == 404)
        #expect(try server.send("GET", "/v1/admin/apps", port: adminPort).status == 200)
        #expect(try server.send("GET", "/healthz", port: adminPort).status == 404)
        #expect(try server.send("GET", "/healthz", port: server.service.port).status == 200)
    }
}
