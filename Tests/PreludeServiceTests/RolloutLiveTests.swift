import Foundation
import PreludeCore
import PreludeStore
import Synchronization
import Testing

@testable import PreludeService

/// Guarded rollouts over the real server (127.0.0.1:0): created and started with curl's requests, served in the
/// policy, fed by events POSTed to the public endpoint, decided by the guard on an injected clock
/// (``RolloutController/evaluateAll()``; the service's own timer shares that clock), published through the policy
/// store. docs/rollouts.md.
@Suite struct RolloutLiveTests {
    static let secret = "rollout-test-bootstrap-secret-0123456789abcdefghijklmnop"
    static let hour: Int64 = 3_600_000
    static let change = #"{"copy": {"en": {"prime": {"title": "Talk to us"}}}}"#

    /// The time the test moves (milliseconds since the epoch).
    final class TestClock: Sendable {
        private let value: Mutex<Int64>
        init(_ start: Int64) { value = Mutex(start) }
        var milliseconds: Int64 { value.withLock { $0 } }
        func advance(_ millis: Int64) { value.withLock { $0 += millis } }
    }

    /// A service with a clock the test moves.
    final class Service {
        let fixture: PublicFixture
        let now: TestClock
        var service: PreludeService
        var client: PublicClient { PublicClient(port: service.port) }

        init(fixture: PublicFixture = PublicFixture()) throws {
            self.fixture = fixture
            now = TestClock(ServiceClock.system.milliseconds)
            service = try Self.start(fixture: fixture, clock: now)
        }

        static func start(fixture: PublicFixture, clock: TestClock) throws -> PreludeService {
            var configuration = fixture.configuration()
            configuration.adminToken = RedactedSecret(RolloutLiveTests.secret)
            return try PreludeService.start(
                configuration: configuration, logger: Logger(level: .error),
                clock: ServiceClock { clock.milliseconds })
        }

        /// Stops the service and starts another on the same database (a restart).
        func restart() throws {
            service.stop()
            service = try Self.start(fixture: fixture, clock: now)
        }

        deinit { service.stop() }

        func advance(_ millis: Int64) { now.advance(millis) }

        func admin(_ method: String, _ target: String, json: String? = nil) throws -> PublicClient.Response {
            var headers = [("Authorization", "Bearer \(RolloutLiveTests.secret)")]
            if json != nil { headers.append(("Content-Type", "application/json")) }
            return try client.send(method, target, headers: headers, body: Array((json ?? "").utf8))
        }

        func adminJSON(_ method: String, _ target: String, json: String? = nil) throws -> JSONValue {
            try JSONParser().parse(try admin(method, target, json: json).text)
        }

        /// Posts each install's events (shown, continued, then granted or denied) for its arm of the rollout's
        /// experiment, in the order given, in batches of 300 events. Real traffic interleaves the arms; so must a
        /// test, or the sequential sample-ratio test rightly sees a broken split after the first batch.
        func post(_ installs: [Install], key: String, requireAccepted: Bool = true) throws {
            var events: [String] = []
            for install in installs {
                let outcome = install.granted ? "systemGranted" : "systemDenied"
                for (index, type) in ["primeShown", "primeAccepted", outcome].enumerated() {
                    events.append(
                        EventsTests.event(
                            "\(install.id)-\(index)", install: install.id, type: type, feature: "microphone",
                            extra: #","experiment":"\#(key)","variant":"\#(install.variant)""#))
                }
            }
            for start in stride(from: 0, to: events.count, by: 300) {
                let response = try client.post(
                    "/v1/apps/demo/events",
                    json: EventsTests.batch(Array(events[start..<min(start + 300, events.count)])))
                if requireAccepted { #expect(response.status == 202, "\(response.text)") }
            }
        }
    }

    /// One simulated install: its id, the arm it reports, and how it answered the system alert.
    struct Install {
        var id: String
        var variant: String
        var granted: Bool
    }

    /// `control` and `rollout` installs alternating (the longer list's rest at the end); `grantedControl` and
    /// `grantedRollout` of each, the first ones, granted.
    static func interleaved(
        control: [String], rollout: [String], grantedControl: Int, grantedRollout: Int
    ) -> [Install] {
        let a = control.enumerated().map { Install(id: $1, variant: "control", granted: $0 < grantedControl) }
        let b = rollout.enumerated().map { Install(id: $1, variant: "rollout", granted: $0 < grantedRollout) }
        var mixed: [Install] = []
        for index in 0..<max(a.count, b.count) {
            if index < a.count { mixed.append(a[index]) }
            if index < b.count { mixed.append(b[index]) }
        }
        return mixed
    }

    /// Install ids the rollout's experiment assigns to `arm` (0 control, 1 new) at `coverage`, skipping `used`.
    static func installs(
        _ count: Int, key: String, arm: Int, coverage: Double, prefix: String, used: Set<String> = []
    ) -> [String] {
        var found: [String] = []
        var candidate = 0
        while found.count < count {
            let id = "\(prefix)-\(candidate)"
            candidate += 1
            if !used.contains(id),
                Bucketing.assign(seed: key, installId: id, weights: [50, 50], coverage: coverage) == arm
            {
                found.append(id)
            }
        }
        return found
    }

    static let plan =
        #""steps": [{"percent": 10, "minimumHoldSeconds": 3600, "minimumExposed": 100}, {"percent": 50, "minimumHoldSeconds": 3600, "minimumExposed": 100}, {"percent": 100}]"#

    /// Creates and starts the rollout of the microphone's new title; returns its id and experiment key.
    static func startRollout(_ service: Service, key: String) throws -> Int {
        let created = try service.admin(
            "POST", "/v1/admin/apps/demo/rollouts",
            json: #"{"feature": "microphone", "key": "\#(key)", "set": \#(change), \#(plan), "start": true}"#)
        #expect(created.status == 201, "\(created.text)")
        let json = try JSONParser().parse(created.text)
        #expect(json["status"] == "running")
        #expect(json["step"]?["coverage"] == .double(0.2))
        return try #require(json["id"]?.intValue)
    }

    static func liveExperiment(_ service: Service, key: String) throws -> JSONValue? {
        let policy = try service.adminJSON("GET", "/v1/admin/apps/demo/policy")
        return policy["experiments"]?.arrayValue?.first { $0["key"]?.stringValue == key }
    }

    /// The documented bound (docs/rollouts.md, "How fast harm is stopped"): a new arm that denies everyone against
    /// a control that grants everyone is stopped at the first evaluation once both arms have 100 exposed installs,
    /// and not before.
    @Test func aHarmfulVariantIsStoppedAndRolledBackWithinTheBound() throws {
        let service = try Service()
        let key = "mic-title-harm"
        // A webhook for the guard's event (written to the store directly: the URL is never sent to here).
        let webhook = try WebhookStore(database: service.service.database).create(
            app: "demo", url: "https://hooks.invalid/guard", secret: "whsec_" + String(repeating: "A", count: 32),
            events: [.rolloutGuardTripped], description: nil, enabled: true, actor: "test", at: 1)
        let id = try Self.startRollout(service, key: key)
        #expect(try Self.liveExperiment(service, key: key)?["coverage"] == .double(0.2))
        // The public policy serves the assignment: an install of the new arm gets the new title.
        let newArm = Self.installs(100, key: key, arm: 1, coverage: 0.2, prefix: "n")
        let control = Self.installs(100, key: key, arm: 0, coverage: 0.2, prefix: "c")
        let served = try JSONParser().parse(
            try service.client.get("/v1/apps/demo/policy?platform=ios&os=17.4&locale=en&installId=\(newArm[0])").text)
        #expect(served["features"]?["microphone"]?["copy"]?["prime"]?["title"] == "Talk to us", "\(served)")

        try service.post(
            Self.interleaved(
                control: Array(control.prefix(99)), rollout: Array(newArm.prefix(99)), grantedControl: 99,
                grantedRollout: 0), key: key)
        service.service.rollouts.evaluateAll()
        #expect(try service.adminJSON("GET", "/v1/admin/apps/demo/rollouts/\(id)")["status"] == "running")

        try service.post(
            Self.interleaved(control: [control[99]], rollout: [newArm[99]], grantedControl: 1, grantedRollout: 0),
            key: key)
        service.service.rollouts.evaluateAll()
        let stopped = try service.adminJSON("GET", "/v1/admin/apps/demo/rollouts/\(id)")
        #expect(stopped["status"] == "rolledBack", "\(stopped)")
        #expect(stopped["trippedBy"] == ["grantRateHarm", "denialRateHarm"])
        #expect(stopped["lastDecision"]?["rollout"]?["exposed"] == 100)
        #expect(try Self.liveExperiment(service, key: key) == nil, "rolled back to the policy without the rollout")
        let audit = try service.adminJSON("GET", "/v1/admin/audit?action=rollout.guardTripped")
        let entry = try #require(audit["entries"]?.arrayValue?.first)
        #expect(entry["detail"]?["figures"]?["findings"] == ["grantRateHarm", "denialRateHarm"], "\(entry)")
        #expect(entry["actor"] == "rollout-guard")
        // The trip's revision enqueued one `rollout.guardTripped` delivery in its transaction (the rollout's own
        // step publications are not that type).
        let deliveries = try #require(
            try WebhookStore(database: service.service.database).deliveries(
                app: "demo", webhook: webhook.id, state: nil, before: nil, limit: 10))
        #expect(deliveries.map(\.eventType) == ["rollout.guardTripped"])
        let data = try JSONParser().parse(try #require(deliveries.first).data)
        #expect(data["action"] == "rollout.guardTripped" && data["diff"]?["changeCount"] != .integer(0))
        let metrics = try service.client.get("/metrics").text
        #expect(metrics.contains("prelude_rollout_guard_trips_total 1"))
        // A stopped rollout stays stopped.
        #expect(try service.admin("POST", "/v1/admin/apps/demo/rollouts/\(id)/resume").status == 409)

        // Its page: the experiment's results page, with the first step and the guard's trip on the time axis.
        let page = try service.client.send(
            "GET", "/v1/admin/apps/demo/rollouts/\(id)",
            headers: [("Authorization", "Bearer \(RolloutLiveTests.secret)"), ("Accept", "text/html")])
        #expect(page.status == 200)
        #expect(page["Content-Type"] == "text/html; charset=utf-8")
        #expect(page.text.contains("<h1>\(key)</h1>") || page.text.contains(key))
        #expect(
            page.text.contains("Rollout \(id) of microphone in production: rolledBack"), "\(page.text.prefix(2000))")
        #expect(page.text.contains("step 1 (10 %)"))
        #expect(page.text.contains("guard tripped (grantRateHarm, denialRateHarm): rolled back"))
        #expect(page.text.components(separatedBy: "<line class=\"marker\"").count - 1 >= 2)
        #expect(page.text.contains("data-variant=\"rollout\""))
    }

    @Test func aHarmlessVariantRampsAndCompletes() throws {
        let service = try Service()
        let key = "mic-title-equal"
        let id = try Self.startRollout(service, key: key)
        let control = Self.installs(150, key: key, arm: 0, coverage: 0.2, prefix: "c")
        let newArm = Self.installs(150, key: key, arm: 1, coverage: 0.2, prefix: "n")
        try service.post(
            Self.interleaved(control: control, rollout: newArm, grantedControl: 60, grantedRollout: 60), key: key)
        service.service.rollouts.evaluateAll()
        #expect(try service.adminJSON("GET", "/v1/admin/apps/demo/rollouts/\(id)")["step"]?["index"] == 0)

        service.advance(Self.hour)
        service.service.rollouts.evaluateAll()
        let second = try service.adminJSON("GET", "/v1/admin/apps/demo/rollouts/\(id)")
        #expect(second["status"] == "running" && second["step"]?["index"] == 1, "\(second)")
        #expect(try Self.liveExperiment(service, key: key)?["coverage"] == 1)

        // The step counts its own exposures: 100 more in the new arm, ramped in at the wider coverage.
        let used = Set(newArm + control)
        let more = Self.installs(100, key: key, arm: 1, coverage: 1, prefix: "m", used: used)
        let moreControl = Self.installs(100, key: key, arm: 0, coverage: 1, prefix: "m", used: used)
        try service.post(
            Self.interleaved(control: moreControl, rollout: more, grantedControl: 40, grantedRollout: 40), key: key)
        service.advance(Self.hour)
        service.service.rollouts.evaluateAll()
        let done = try service.adminJSON("GET", "/v1/admin/apps/demo/rollouts/\(id)")
        #expect(done["status"] == "completed", "\(done)")
        #expect(try Self.liveExperiment(service, key: key) == nil)
        let policy = try service.adminJSON("GET", "/v1/admin/apps/demo/policy")
        #expect(policy["features"]?["microphone"]?["copy"]?["en"]?["prime"]?["title"] == "Talk to us")
    }

    /// A sample-ratio mismatch holds by default (docs/rollouts.md, "Actions per finding"): paused, `heldBy`, the
    /// step still served, audit `rollout.held` and one `rollout.held` webhook delivery.
    @Test func brokenAssignmentIsHeldByTheSampleRatioTest() throws {
        let service = try Service()
        let key = "mic-title-srm"
        let webhook = try WebhookStore(database: service.service.database).create(
            app: "demo", url: "https://hooks.invalid/held", secret: "whsec_" + String(repeating: "B", count: 32),
            events: [.rolloutHeld], description: nil, enabled: true, actor: "test", at: 1)
        let id = try Self.startRollout(service, key: key)
        // Logging is broken in the control arm: two of every three of its installs never report.
        let control = Self.installs(100, key: key, arm: 0, coverage: 0.2, prefix: "c")
        let newArm = Self.installs(300, key: key, arm: 1, coverage: 0.2, prefix: "n")
        // One control install for every three new-arm installs, all the way. Once the guard trips, the experiment
        // is gone from the live policy and the rest of the stream is refused (422), as for any client whose
        // cached policy names a removed experiment (not here: a hold keeps serving the step).
        var stream: [Install] = []
        for index in 0..<100 {
            stream.append(Install(id: control[index], variant: "control", granted: index % 2 == 0))
            for offset in 0..<3 {
                stream.append(Install(id: newArm[3 * index + offset], variant: "rollout", granted: offset == 0))
            }
        }
        try service.post(stream, key: key, requireAccepted: false)
        service.service.rollouts.evaluateAll()
        let stopped = try service.adminJSON("GET", "/v1/admin/apps/demo/rollouts/\(id)")
        #expect(stopped["status"] == "paused", "\(stopped)")
        #expect(stopped["heldBy"] == ["sampleRatioMismatch"] && stopped["trippedBy"] == [])
        #expect(try Self.liveExperiment(service, key: key) != nil, "a hold publishes nothing")
        let audit = try service.adminJSON("GET", "/v1/admin/audit?action=rollout.held")
        #expect(audit["entries"]?.arrayValue?.first?["detail"]?["findings"] == ["sampleRatioMismatch"], "\(audit)")
        let deliveries = try #require(
            try WebhookStore(database: service.service.database).deliveries(
                app: "demo", webhook: webhook.id, state: nil, before: nil, limit: 10))
        #expect(deliveries.map(\.eventType) == ["rollout.held"])
        #expect(try service.client.get("/metrics").text.contains("prelude_rollout_holds_total 1"))
        // Held once: after a resume the same finding does not hold again; the operator has seen it.
        #expect(try service.admin("POST", "/v1/admin/apps/demo/rollouts/\(id)/resume").status == 200)
        service.service.rollouts.evaluateAll()
        #expect(try service.adminJSON("GET", "/v1/admin/apps/demo/rollouts/\(id)")["status"] == "running")
    }

    /// On an environment that requires approvals the plan is approved once, through a change request; after that
    /// the guard's rollback needs nothing (issue 35, docs/rollouts.md "Approval").
    @Test func aGuardRollbackNeedsNoApprovalOnAGatedEnvironment() throws {
        let service = try Service()
        let key = "mic-title-gated"
        func send(_ method: String, _ target: String, token: String, json: String? = nil) throws
            -> PublicClient.Response
        {
            var headers = [("Authorization", "Bearer \(token)")]
            if json != nil { headers.append(("Content-Type", "application/json")) }
            return try service.client.send(method, target, headers: headers, body: Array((json ?? "").utf8))
        }
        func token(_ body: String) throws -> String {
            let created = try service.adminJSON("POST", "/v1/admin/tokens", json: body)
            return try #require(created["token"]?.stringValue)
        }
        let alice = try token(#"{"name": "alice", "scope": "write"}"#)
        let bob = try token(#"{"name": "bob", "scope": "read", "approve": true}"#)
        let gated = try service.admin(
            "PATCH", "/v1/admin/apps/demo/environments/production", json: #"{"requiredApprovals": 1}"#)
        #expect(gated.status == 200, "\(gated.text)")

        let created = try send(
            "POST", "/v1/admin/apps/demo/rollouts", token: alice,
            json: #"{"feature": "microphone", "key": "\#(key)", "set": \#(Self.change), \#(Self.plan), "start": true}"#)
        #expect(created.status == 202, "\(created.text)")
        let json = try JSONParser().parse(created.text)
        let id = try #require(json["id"]?.intValue)
        let request = try #require(json["changeRequest"]?["id"]?.intValue)
        #expect(try Self.liveExperiment(service, key: key) == nil)
        let base = "/v1/admin/apps/demo/environments/production/change-requests/\(request)"
        #expect(try send("POST", base + "/approve", token: bob).status == 200)
        let applied = try send("POST", base + "/apply", token: alice)
        #expect(applied.status == 200, "\(applied.text)")
        #expect(try Self.liveExperiment(service, key: key)?["coverage"] == .double(0.2))

        let newArm = Self.installs(100, key: key, arm: 1, coverage: 0.2, prefix: "n")
        let control = Self.installs(100, key: key, arm: 0, coverage: 0.2, prefix: "c")
        try service.post(
            Self.interleaved(control: control, rollout: newArm, grantedControl: 100, grantedRollout: 0), key: key)
        service.service.rollouts.evaluateAll()
        let stopped = try service.adminJSON("GET", "/v1/admin/apps/demo/rollouts/\(id)")
        #expect(stopped["status"] == "rolledBack", "\(stopped)")
        #expect(try Self.liveExperiment(service, key: key) == nil, "rolled back without an approval")
    }

    @Test func aRestartMidRolloutResumesWhereItWas() throws {
        let service = try Service()
        let key = "mic-title-restart"
        let id = try Self.startRollout(service, key: key)
        let control = Self.installs(120, key: key, arm: 0, coverage: 0.2, prefix: "c")
        let newArm = Self.installs(120, key: key, arm: 1, coverage: 0.2, prefix: "n")
        try service.post(
            Self.interleaved(control: control, rollout: newArm, grantedControl: 48, grantedRollout: 48), key: key)
        service.advance(Self.hour / 2)
        service.service.rollouts.evaluateAll()
        try service.restart()
        let resumed = try service.adminJSON("GET", "/v1/admin/apps/demo/rollouts/\(id)")
        #expect(resumed["status"] == "running" && resumed["step"]?["index"] == 0)
        #expect(resumed["figures"]?["rollout"]?["exposed"] == 120)
        // The hold counts from the step's start before the restart, not from the restart.
        service.advance(Self.hour / 2)
        service.service.rollouts.evaluateAll()
        let advanced = try service.adminJSON("GET", "/v1/admin/apps/demo/rollouts/\(id)")
        #expect(advanced["step"]?["index"] == 1, "\(advanced)")
    }

    @Test func operatorsPauseResumeAndAbort() throws {
        let service = try Service()
        let key = "mic-title-ops"
        let created = try service.adminJSON(
            "POST", "/v1/admin/apps/demo/rollouts",
            json: #"{"feature": "microphone", "key": "\#(key)", "set": \#(Self.change), \#(Self.plan)}"#)
        #expect(created["status"] == "draft")
        #expect(try Self.liveExperiment(service, key: key) == nil, "a draft serves nothing")
        let id = try #require(created["id"]?.intValue)
        // One live rollout per app.
        let second = try service.admin(
            "POST", "/v1/admin/apps/demo/rollouts",
            json: #"{"feature": "microphone", "key": "other", "set": \#(Self.change), \#(Self.plan)}"#)
        #expect(second.status == 409)
        let base = "/v1/admin/apps/demo/rollouts/\(id)"
        #expect(try service.admin("POST", base + "/pause").status == 409)
        #expect(try service.adminJSON("POST", base + "/start")["status"] == "running")
        #expect(try Self.liveExperiment(service, key: key) != nil)
        #expect(try service.adminJSON("POST", base + "/pause")["status"] == "paused")
        #expect(try service.adminJSON("POST", base + "/resume")["status"] == "running")
        #expect(try service.adminJSON("POST", base + "/abort")["status"] == "aborted")
        #expect(try Self.liveExperiment(service, key: key) == nil)
        let list = try service.adminJSON("GET", "/v1/admin/apps/demo/rollouts")
        #expect(list["rollouts"]?.arrayValue?.count == 1)
        #expect(try service.admin("GET", "/v1/admin/apps/demo/rollouts/999").status == 404)
    }

    @Test(arguments: [
        (#"{"feature": "microphone", "set": {}, "steps": [{"percent": 50}, {"percent": 25}]}"#, "/steps/1/percent"),
        (#"{"feature": "camera", "set": {}, "steps": [{"percent": 50}]}"#, ""),
        (#"{"feature": "nope", "set": {}, "steps": [{"percent": 50}]}"#, "/feature"),
        (#"{"feature": "microphone", "steps": [{"percent": 50}]}"#, "/set"),
        (#"{"feature": "microphone", "set": {}, "steps": [{"percent": 50}], "alpha": 0.9}"#, "/alpha"),
        (#"{"feature": "microphone", "set": {"style": "fancy"}, "steps": [{"percent": 50}]}"#, "/experiments"),
        (#"{"feature": "microphone", "set": {}, "steps": [{"percent": 50}], "colour": 1}"#, "/colour"),
    ])
    func badRolloutsAreRefusedAndChangeNothing(body: String, pointer: String) throws {
        let service = try Service()
        let response = try service.admin("POST", "/v1/admin/apps/demo/rollouts", json: body)
        #expect([409, 422].contains(response.status), "\(response.text)")
        #expect(response["Content-Type"] == "application/problem+json")
        if !pointer.isEmpty { #expect(response.text.contains(pointer), "\(response.text)") }
        #expect(try service.adminJSON("GET", "/v1/admin/apps/demo/rollouts")["rollouts"] == [])
    }
}
