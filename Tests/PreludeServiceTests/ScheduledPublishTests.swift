import Foundation
import PreludeCore
import PreludeStorage
import Testing

@testable import PreludeService

/// Scheduled publishes over the real server on an injected clock: due once at the instant, not before, once
/// after a restart, never for a stale request.
@Suite struct ScheduledPublishTests {
    static let base = ChangeRequestTests.base

    /// An approved request scheduled `seconds` after the fixture's start; returns its id.
    static func scheduled(_ server: ChangeServer, inSeconds seconds: Int64) throws -> Int {
        let id = try ChangeRequestTests.id(try server.propose(title: "Scan receipts"))
        let at = AdminTime.iso8601(ChangeServer.start + seconds * 1000)
        let response = try server.send("POST", "\(Self.base)/\(id)/schedule", body: #"{"at": "\#(at)"}"#)
        #expect(response.status == 200, "\(response.body)")
        #expect(response.object["scheduledAt"] as? String == at)
        return id
    }

    @Test func aScheduledPublishFiresOnceAtItsInstant() throws {
        let server = try ChangeServer()
        let id = try Self.scheduled(server, inSeconds: 60)
        let scheduler = server.service.admin.scheduler

        server.setClock(secondsAfterStart: 59)
        #expect(scheduler.runOnce().due.isEmpty)
        #expect(try server.revisionCount() == 1)

        server.setClock(secondsAfterStart: 60)
        #expect(scheduler.runOnce().due == [Int64(id)])
        #expect(scheduler.runOnce().due.isEmpty)
        #expect(try server.revisionCount() == 2)
        let shown = try server.send("GET", "\(Self.base)/\(id)")
        #expect(shown.object["state"] as? String == "applied")
        #expect(shown.object["scheduledAt"] is NSNull)
        let audit = try server.audit("changeRequest.apply")
        #expect(audit.map(\.actor) == ["scheduler"])
        #expect(audit.first?.detail["changeRequest"] as? Int == id)
    }

    @Test func aScheduledPublishSurvivesARestartAndFiresOnce() throws {
        let server = try ChangeServer()
        let id = try Self.scheduled(server, inSeconds: 60)
        // Down over the instant: the new process finds it due at its first look.
        server.service.stop()
        server.setClock(secondsAfterStart: 3600)
        try server.restart()
        server.service.admin.scheduler.runOnce()
        #expect(try server.revisionCount() == 2)
        #expect(try server.send("GET", "\(Self.base)/\(id)").object["state"] as? String == "applied")

        try server.restart()
        server.service.admin.scheduler.runOnce()
        #expect(try server.revisionCount() == 2)
        #expect(try server.audit("changeRequest.apply").count == 1)
    }

    @Test func unschedulingKeepsTheRequestApprovedAndUnpublished() throws {
        let server = try ChangeServer()
        let id = try Self.scheduled(server, inSeconds: 60)
        let cleared = try server.send("POST", "\(Self.base)/\(id)/schedule", body: #"{"at": null}"#)
        #expect(cleared.object["scheduledAt"] is NSNull)
        server.setClock(secondsAfterStart: 120)
        #expect(server.service.admin.scheduler.runOnce().due.isEmpty)
        #expect(try server.revisionCount() == 1)
        #expect(cleared.object["state"] as? String == "approved")
    }

    @Test func aScheduledRequestThatWentStaleIsNotPublished() throws {
        let server = try ChangeServer()
        let id = try Self.scheduled(server, inSeconds: 60)
        let direct = try server.send(
            "PATCH", "/v1/admin/apps/demo/features/camera",
            headers: [("If-Match", try server.etag()), ("Content-Type", "application/merge-patch+json")],
            body: #"{"copy": {"en": {"prime": {"title": "Scan letters"}}}}"#)
        #expect(direct.status == 200)
        server.setClock(secondsAfterStart: 60)
        #expect(server.service.admin.scheduler.runOnce().due.isEmpty)
        #expect(try server.revisionCount() == 2)
        let shown = try server.send("GET", "\(Self.base)/\(id)")
        #expect(shown.object["state"] as? String == "stale")
        #expect(shown.object["scheduledAt"] is NSNull)
        #expect(try server.send("GET", "/v1/admin/apps/demo/policy").body.contains("Scan letters"))
    }

    @Test func editingAScheduledRequestClearsItsSchedule() throws {
        let server = try ChangeServer()
        let id = try Self.scheduled(server, inSeconds: 60)
        let tag = try #require(try server.send("GET", "\(Self.base)/\(id)").headers["etag"])
        let edited = try server.send(
            "PATCH", "\(Self.base)/\(id)", headers: [("If-Match", tag)],
            body: #"{"patch": {"features": {"camera": {"copy": {"en": {"prime": {"title": "Scan letters"}}}}}}}"#)
        #expect(edited.status == 200)
        #expect(edited.object["scheduledAt"] is NSNull)
        server.setClock(secondsAfterStart: 120)
        #expect(server.service.admin.scheduler.runOnce().due.isEmpty)
        #expect(try server.revisionCount() == 1)
    }

    /// Issue 35: a time without a zone or without seconds scheduled the date's midnight UTC (a date-only fallback),
    /// hours early. Over the real server: 422 at `/at` with an example an hour after the server's now.
    @Test(arguments: ["2027-01-20T23:00:00", "2027-01-20T23:00Z", "2027-01-20", "2027-01-20 23:00:00Z"])
    func scheduleRefusesWhatIsNotAnRFC3339DateTime(at: String) throws {
        let server = try ChangeServer()
        let id = try ChangeRequestTests.id(try server.propose(title: "Scan receipts"))
        let refused = try server.send("POST", "\(Self.base)/\(id)/schedule", body: #"{"at": "\#(at)"}"#)
        #expect(refused.status == 422, "\(refused.body)")
        #expect(refused.headers["content-type"] == "application/problem+json")
        let problem = try #require((refused.object["errors"] as? [[String: Any]])?.first)
        #expect(problem["pointer"] as? String == "/at")
        let detail = try #require(problem["detail"] as? String)
        // ChangeServer.start is 2027-01-15T08:00:00Z.
        #expect(detail.contains("such as 2027-01-15T09:00:00Z"), "\(detail)")
        #expect(detail.contains(at), "\(detail)")
        #expect(try server.send("GET", "\(Self.base)/\(id)").object["scheduledAt"] is NSNull)
    }

    /// An instant with an offset schedules exactly that instant (shown in UTC) and fires then, not a second before.
    @Test func scheduleTakesExactlyTheInstantGiven() throws {
        let server = try ChangeServer()
        let id = try ChangeRequestTests.id(try server.propose(title: "Scan receipts"))
        let response = try server.send(
            "POST", "\(Self.base)/\(id)/schedule", body: #"{"at": "2027-01-15t10:00:00+01:00"}"#)
        #expect(response.status == 200, "\(response.body)")
        #expect(response.object["scheduledAt"] as? String == "2027-01-15T09:00:00.000Z")
        server.setClock(secondsAfterStart: 3599)
        #expect(server.service.admin.scheduler.runOnce().due.isEmpty)
        server.setClock(secondsAfterStart: 3600)
        #expect(server.service.admin.scheduler.runOnce().due == [Int64(id)])
    }
}
