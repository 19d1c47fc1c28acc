import Foundation
import PreludeStorage
import Testing

@testable import PreludeService

/// Re-basing a change request is a three-way merge (issue 35, docs/change-management.md "Rebase: a three-way
/// merge"), over the real server: a partial promotion records only what it changes, a re-base keeps what production
/// published in between, and a member both sides changed is a 409 naming its pointer. Every write of a request
/// answers its state and links, never the document.
@Suite struct ChangeRequestRebaseTests {
    static let environments = "/v1/admin/apps/demo/environments"
    static let production = environments + "/production"
    static let cameraTitle = "/features/camera/copy/en/prime/title"

    /// Changes the camera's (or `feature`'s) English priming title in `environment` directly, with `token`.
    static func retitle(
        _ server: ChangeServer, _ environment: String, feature: String = "camera", to title: String,
        token: String = AdminServer.secret
    ) throws {
        let path = environments + "/\(environment)"
        let tag = try #require(try server.send("GET", path + "/policy").headers["etag"])
        let patched = try server.send(
            "PATCH", path + "/features/\(feature)", token: token,
            headers: [("If-Match", tag), ("Content-Type", "application/merge-patch+json")],
            body: #"{"copy": {"en": {"prime": {"title": "\#(title)"}}}}"#)
        #expect(patched.status == 200, "\(patched.body)")
    }

    /// Promotes staging's camera copy (only) into production: a change request there, as production requires
    /// approval.
    static func promoteCameraCopy(_ server: ChangeServer) throws -> TestTransport.Response {
        let promotion = try server.send(
            "POST", production + "/promotions", headers: [("If-Match", try server.etag())],
            body: #"{"from": "staging", "features": ["camera"], "parts": ["copy"]}"#)
        #expect(promotion.status == 202, "\(promotion.body)")
        return promotion
    }

    static func document(_ server: ChangeServer, _ id: Int) throws -> String {
        let response = try server.send("GET", production + "/change-requests/\(id)/document")
        #expect(response.status == 200, "\(response.body)")
        return response.body
    }

    @Test func aRebasedPartialPromotionKeepsTheUnrelatedProductionChangeAndAConflictNamesItsPointer() throws {
        let server = try ChangeRequestEnvironmentTests.server()
        let robot = try server.token("deploy-bot", bypass: true)
        let reviewer = try server.token("reviewer", scope: "read", approve: true)

        // Stage a camera-copy change; promote camera copy only to production: a request whose patch is that title.
        try Self.retitle(server, "staging", to: "Scan receipts")
        let promotion = try Self.promoteCameraCopy(server)
        let id = try #require(promotion.object["id"] as? Int)
        #expect(promotion.object["changedPointers"] as? [String] == [Self.cameraTitle])
        let item = Self.production + "/change-requests/\(id)"

        // An unrelated change lands on production first (a bypass write): the request goes stale.
        try Self.retitle(server, "production", feature: "microphone", to: "Dictate notes", token: robot)
        #expect(try server.send("POST", item + "/approve", token: reviewer).status == 200)
        let stale = try server.send("POST", item + "/apply")
        #expect(stale.object["type"] as? String == "urn:prelude:problem:stale-change-request", "\(stale.body)")

        // The re-base re-applies the camera title to the live revision: the microphone change survives.
        let rebased = try server.send("POST", item + "/rebase")
        #expect(rebased.status == 200, "\(rebased.body)")
        #expect(rebased.object["state"] as? String == "review")
        #expect(rebased.object["changedPointers"] as? [String] == [Self.cameraTitle])
        let merged = try Self.document(server, id)
        #expect(merged.contains("Scan receipts") && merged.contains("Dictate notes"), "\(merged)")
        #expect(!merged.contains("Record notes"))
        let shown = try server.send("GET", item)
        let diff = try #require(shown.object["diff"] as? [[String: Any]])
        #expect(diff.map { $0["pointer"] as? String } == [Self.cameraTitle])
        #expect(try server.send("POST", item + "/approve", token: reviewer).status == 200)
        let applied = try server.send("POST", item + "/apply")
        #expect(applied.status == 200, "\(applied.body)")
        let live = try server.send("GET", "/v1/apps/demo/policy/document").body
        #expect(live.contains("Scan receipts") && live.contains("Dictate notes"), "\(live)")

        // A second promotion, and production changes the same member differently first: the re-base is refused
        // with the pointer, and nothing changes.
        try Self.retitle(server, "staging", to: "Scan invoices")
        let second = try #require(try Self.promoteCameraCopy(server).object["id"] as? Int)
        let secondItem = Self.production + "/change-requests/\(second)"
        try Self.retitle(server, "production", to: "Scan now", token: robot)
        #expect(try server.send("POST", secondItem + "/approve", token: reviewer).status == 200)
        let secondStale = try server.send("POST", secondItem + "/apply")
        #expect(secondStale.object["type"] as? String == "urn:prelude:problem:stale-change-request")
        let before = try server.dump()
        let conflict = try server.send("POST", secondItem + "/rebase")
        #expect(conflict.status == 409, "\(conflict.body)")
        #expect(conflict.headers["content-type"] == "application/problem+json")
        #expect(conflict.object["type"] as? String == "urn:prelude:problem:rebase-conflict")
        let errors = try #require(conflict.object["errors"] as? [[String: Any]])
        #expect(errors.map { $0["pointer"] as? String } == [Self.cameraTitle])
        #expect((errors.first?["detail"] as? String)?.contains(#""Scan now""#) == true)
        #expect(try server.dump() == before)
        #expect(try server.send("GET", secondItem).object["state"] as? String == "stale")
    }

    @Test func aMergeThatDoesNotValidateIsRefusedWithTheValidatorsProblems() throws {
        let server = try ChangeServer()
        // The request moves the priming continue label from the defaults into each feature: valid alone.
        let label = #"{"copy": {"en": {"prime": {"continueLabel": "Continue"}}}}"#
        let created = try server.send(
            "POST", ChangeRequestTests.base,
            body: #"{"patch": {"defaults": {"copy": {"en": {"prime": {"continueLabel": null}}}}, "#
                + #""features": {"camera": \#(label), "microphone": \#(label)}}}"#)
        #expect(created.status == 201, "\(created.body)")
        let item = "\(ChangeRequestTests.base)/\(try ChangeRequestTests.id(created))"
        // Production meanwhile adds photos, relying on the defaults' label: valid alone.
        let photos = #"""
            "photos": {
              "copy": {"en": {"prime": {"title": "Attach photos", "message": "{appName} attaches photos."},
                              "settings": {"title": "Photos are off", "message": "Open Settings to attach."}}}
            },
            "camera": {
            """#
        let put = try server.send(
            "PUT", "/v1/admin/apps/demo/policy", headers: [("If-Match", try server.etag())],
            body: AdminServer.policyText.replacingOccurrences(of: #""camera": {"#, with: photos))
        #expect(put.status == 200, "\(put.body)")
        #expect(try server.send("POST", item + "/apply").status == 409)

        // No member conflicts, but photos is left without a continue label: the validator's problems, nothing changed.
        let before = try server.dump()
        let refused = try server.send("POST", item + "/rebase")
        #expect(refused.status == 422, "\(refused.body)")
        #expect(refused.object["type"] as? String == "urn:prelude:problem:invalid-policy")
        let errors = try #require(refused.object["errors"] as? [[String: Any]])
        #expect(errors.contains { ($0["pointer"] as? String)?.hasPrefix("/features/photos") == true }, "\(errors)")
        #expect(try server.dump() == before)
    }

    @Test func everyWriteAnswersTheStateAndLinksAndTheGetHasTheDocument() throws {
        let server = try ChangeServer(approval: ChangeRequestTests.two)
        let bob = try server.token("bob", approve: true)
        let created = try server.propose(title: "Scan receipts")
        #expect(created.status == 201)
        let id = try ChangeRequestTests.id(created)
        let item = "/v1/admin/apps/demo/environments/production/change-requests/\(id)"
        var answers = [created]
        answers.append(try server.send("POST", "/v1/admin/apps/demo/change-requests/\(id)/approve", token: bob))
        let edited = try server.send(
            "PATCH", item, headers: [("If-Match", "\"cr\(id)-v2\"")], body: #"{"message": "shorter title"}"#)
        answers.append(edited)
        answers.append(try server.send("POST", item + "/cancel", body: #"{"reason": "not now"}"#))
        for answer in answers {
            #expect(answer.status == 200 || answer.status == 201, "\(answer.body)")
            for heavy in ["document", "diff", "findings", "patch", "changes"] {
                #expect(answer.object[heavy] == nil, "\(heavy) in \(answer.body)")
            }
            #expect(answer.object["changedPointers"] as? [String] == [Self.cameraTitle])
            #expect(answer.object["changeCount"] as? Int == 1)
            let links = try #require(answer.object["links"] as? [String: String])
            #expect(links == ["self": item, "document": item + "/document"])
            #expect(answer.body.utf8.count < 2_000)
        }
        #expect(answers.map { $0.object["state"] as? String } == ["review", "review", "review", "cancelled"])
        #expect(answers[1].object["approvalsCounted"] as? Int == 1)

        let shown = try server.send("GET", item)
        #expect(shown.object["state"] as? String == "cancelled")
        #expect(shown.object["document"] is [String: Any])
        let changes = try #require(shown.object["changes"] as? [[String: Any]])
        #expect(changes.map { $0["pointer"] as? String } == [Self.cameraTitle])
        #expect(changes.first?["from"] as? String == "Scan documents")
        let document = try server.send("GET", item + "/document")
        #expect(document.status == 200)
        #expect(document.headers["etag"] == shown.headers["etag"])
        #expect((document.object["app"] as? [String: String])?["id"] == "demo")
        #expect(document.body.contains("Scan receipts"))
        let etag = try #require(shown.headers["etag"])
        #expect(try server.send("GET", item + "/document", headers: [("If-None-Match", etag)]).status == 304)
    }

    @Test func aRequestStoredWithoutAPatchDerivesItFromItsBaseRevision() throws {
        let server = try ChangeServer()
        // A whole document changing only the camera's title, as an earlier build stored it: no patch column.
        let whole = AdminServer.policyText.replacingOccurrences(of: "Scan documents", with: "Scan receipts")
        let created = try server.send(
            "POST", "/v1/admin/apps/demo/change-requests", body: #"{"document": \#(whole)}"#)
        let id = try ChangeRequestTests.id(created)
        try server.service.database.write { db in
            try db.execute("UPDATE change_requests SET changes = NULL WHERE id = ?", [.integer(Int64(id))])
        }
        let item = "/v1/admin/apps/demo/change-requests/\(id)"
        #expect(try server.send("GET", item).object["changedPointers"] as? [String] == [Self.cameraTitle])
        let put = try server.send(
            "PATCH", "/v1/admin/apps/demo/features/microphone",
            headers: [("If-Match", try server.etag()), ("Content-Type", "application/merge-patch+json")],
            body: #"{"copy": {"en": {"prime": {"title": "Dictate notes"}}}}"#)
        #expect(put.status == 200, "\(put.body)")
        #expect(try server.send("POST", item + "/apply").status == 409)
        let rebased = try server.send("POST", item + "/rebase")
        #expect(rebased.status == 200, "\(rebased.body)")
        let merged = try server.send("GET", item + "/document").body
        #expect(merged.contains("Scan receipts") && merged.contains("Dictate notes"), "\(merged)")
    }
}
