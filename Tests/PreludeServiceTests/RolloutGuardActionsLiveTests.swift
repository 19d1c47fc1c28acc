import Foundation
import PreludeCore
import PreludeStore
import Testing

@testable import PreludeService

/// Issue 40 over the real server: a harmed locale carved out while the rest completes, the forecast of
/// `…/rollouts/simulate` and of the creation answer, the content gate, and rollout templates with an environment's
/// floor (docs/rollouts.md).
@Suite struct RolloutGuardActionsLiveTests {
    typealias Live = RolloutLiveTests

    /// Posts `installs` as `Live.Service.post` does, in one segment (`Prelude-Locale`).
    static func post(_ service: Live.Service, _ installs: [Live.Install], key: String, locale: String) throws {
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
            let response = try service.client.post(
                "/v1/apps/demo/events", json: EventsTests.batch(Array(events[start..<min(start + 300, events.count)])),
                headers: [("Prelude-Locale", locale), ("Prelude-OS-Major", "18")])
            #expect(response.status == 202, "\(response.text)")
        }
    }

    static func title(_ service: Live.Service, install: String, locale: String) throws -> JSONValue? {
        let served = try JSONParser().parse(
            try service.client.get("/v1/apps/demo/policy?platform=ios&os=18.1&locale=\(locale)&installId=\(install)")
                .text)
        return served["features"]?["microphone"]?["copy"]?["prime"]?["title"]
    }

    /// The issue's scenario: a copy that hurts only German installs is carved out for `de` (a targeting rule keeps
    /// their old title) while the rollout ramps on and completes elsewhere.
    @Test func aHarmInOneLocaleIsCarvedOutWhileTheRestCompletes() throws {
        let service = try Live.Service()
        let key = "mic-title-de"
        let webhook = try WebhookStore(database: service.service.database).create(
            app: "demo", url: "https://hooks.invalid/segments", secret: "whsec_" + String(repeating: "C", count: 32),
            events: [.rolloutSegmentExcluded], description: nil, enabled: true, actor: "test", at: 1)
        let created = try service.admin(
            "POST", "/v1/admin/apps/demo/rollouts",
            json: #"{"feature": "microphone", "key": "\#(key)", "set": \#(Live.change), \#(Live.plan), "#
                + #""segments": ["locale"], "actions": {"harm": "warn"}, "start": true}"#)
        #expect(created.status == 201, "\(created.text)")
        let id = try #require(try JSONParser().parse(created.text)["id"]?.intValue)

        let deControl = Live.installs(120, key: key, arm: 0, coverage: 0.2, prefix: "dc")
        let deNew = Live.installs(120, key: key, arm: 1, coverage: 0.2, prefix: "dn")
        let enControl = Live.installs(120, key: key, arm: 0, coverage: 0.2, prefix: "ec")
        let enNew = Live.installs(120, key: key, arm: 1, coverage: 0.2, prefix: "en")
        #expect(try Self.title(service, install: deNew[0], locale: "de") == "Talk to us", "de falls back to en")
        // German installs: the new title makes every one deny; elsewhere it changes nothing.
        try Self.post(
            service, Live.interleaved(control: deControl, rollout: deNew, grantedControl: 120, grantedRollout: 0),
            key: key, locale: "de")
        try Self.post(
            service, Live.interleaved(control: enControl, rollout: enNew, grantedControl: 60, grantedRollout: 60),
            key: key, locale: "en")
        service.service.rollouts.evaluateAll()

        let carved = try service.adminJSON("GET", "/v1/admin/apps/demo/rollouts/\(id)")
        #expect(carved["status"] == "running", "\(carved)")
        #expect(carved["excludedSegments"] == [["dimension": "locale", "value": "de"]], "\(carved)")
        let segments = carved["figures"]?["segments"]?.arrayValue ?? []
        #expect(!segments.contains { $0["value"] == "de" } && segments.contains { $0["value"] == "en" }, "\(segments)")
        let policy = try service.adminJSON("GET", "/v1/admin/apps/demo/policy")
        let rules = policy["features"]?["microphone"]?["targeting"]?.arrayValue ?? []
        let rule = try #require(rules.first { $0["name"] == .string("\(key)-keep-de") }, "\(rules)")
        #expect(rule["when"] == ["locales": ["de"]])
        #expect(rule["set"]?["copy"]?["de"]?["prime"]?["title"] == "Record voice notes")
        // German installs of the new arm see the old title again; the others keep the new one.
        #expect(try Self.title(service, install: deNew[0], locale: "de") == "Record voice notes")
        #expect(try Self.title(service, install: enNew[0], locale: "en") == "Talk to us")
        let audit = try service.adminJSON("GET", "/v1/admin/audit?action=rollout.segmentExcluded")
        #expect(audit["entries"]?.arrayValue?.count == 1, "\(audit)")
        let deliveries = try #require(
            try WebhookStore(database: service.service.database).deliveries(
                app: "demo", webhook: webhook.id, state: nil, before: nil, limit: 10))
        #expect(deliveries.map(\.eventType) == ["rollout.segmentExcluded"])
        #expect(try service.client.get("/metrics").text.contains("prelude_rollout_segment_exclusions_total 1"))

        // The rest ramps on: the next step after the hold, then completion after its own exposures.
        service.advance(Live.hour)
        service.service.rollouts.evaluateAll()
        let second = try service.adminJSON("GET", "/v1/admin/apps/demo/rollouts/\(id)")
        #expect(second["step"]?["index"] == 1, "\(second)")
        let used = Set(deControl + deNew + enControl + enNew)
        let more = Live.installs(100, key: key, arm: 1, coverage: 1, prefix: "m", used: used)
        let moreControl = Live.installs(100, key: key, arm: 0, coverage: 1, prefix: "m", used: used)
        try Self.post(
            service, Live.interleaved(control: moreControl, rollout: more, grantedControl: 50, grantedRollout: 50),
            key: key, locale: "en")
        service.advance(Live.hour)
        service.service.rollouts.evaluateAll()
        let done = try service.adminJSON("GET", "/v1/admin/apps/demo/rollouts/\(id)")
        #expect(done["status"] == "completed", "\(done)")
        let final = try service.adminJSON("GET", "/v1/admin/apps/demo/policy")
        let microphone = final["features"]?["microphone"]
        #expect(microphone?["copy"]?["en"]?["prime"]?["title"] == "Talk to us")
        #expect(microphone?["targeting"]?.arrayValue?.contains { $0["name"] == .string("\(key)-keep-de") } == true)
        #expect(try Self.title(service, install: "anyone", locale: "de") == "Record voice notes")
        #expect(try Self.title(service, install: "anyone", locale: "en") == "Talk to us")

        // The page, read as a product manager would: what happened, 100 %, the carve-out, the harm bound chart.
        let page = try service.client.send(
            "GET", "/v1/admin/apps/demo/rollouts/\(id)",
            headers: [("Authorization", "Bearer \(Live.secret)"), ("Accept", "text/html")])
        #expect(page.status == 200)
        #expect(page.text.contains("Completed: 100 % of installs get the change."), "\(page.text.prefix(3000))")
        #expect(page.text.contains("Carved out (kept on the old screen): locale de."))
        #expect(page.text.contains("id=\"rollout-harm\"") && page.text.contains("carved out de"))
        #expect(!page.text.contains("step 2 of 2 (50 %)"), "a completed rollout says 100 %")
        // The next plan's forecast reads this feature's own aggregates: 680 installs on one day, half granted.
        let forecast = try service.adminJSON(
            "POST", "/v1/admin/apps/demo/rollouts/simulate", json: #"{"feature": "microphone", \#(Live.plan)}"#)
        #expect(forecast["baseline"]?["from"] == "aggregates", "\(forecast)")
        #expect(forecast["baseline"]?["exposedInstalls"] == 680 && forecast["baseline"]?["grantRate"] == .double(0.5))
        // Over the days from the first with data through today: one, or two when the test's two hours crossed
        // midnight UTC (the test clock starts at the wall clock).
        let days = try #require(forecast["baseline"]?["days"]?.intValue)
        #expect(days == 1 || days == 2, "\(forecast)")
        #expect(
            forecast["baseline"]?["installsPerHour"]?.doubleValue.map { abs($0 - 680.0 / Double(24 * days)) < 1e-9 }
                == true)
        #expect(forecast["estimates"]?.arrayValue?.count == 3)
        if let path = ProcessInfo.processInfo.environment["ROLLOUT_PAGE_OUT"] {
            try page.text.write(toFile: path, atomically: true, encoding: .utf8)
        }
    }

    /// A harm budget the bound may exceed acts whatever α says: here held (the plan's action), with
    /// `rollout.budgetExceeded` and `rollout.held` told to webhooks, an audit record and the metric.
    @Test func aBudgetTheBoundMayExceedHoldsTheRollout() throws {
        let service = try Live.Service()
        let key = "mic-budget"
        let webhook = try WebhookStore(database: service.service.database).create(
            app: "demo", url: "https://hooks.invalid/budget", secret: "whsec_" + String(repeating: "D", count: 32),
            events: [.rolloutBudgetExceeded, .rolloutHeld], description: nil, enabled: true, actor: "test", at: 1)
        let created = try service.admin(
            "POST", "/v1/admin/apps/demo/rollouts",
            json: #"{"feature": "microphone", "key": "\#(key)", "set": \#(Live.change), \#(Live.plan), "#
                + #""harmBudget": 50, "actions": {"harmBudget": "hold"}, "start": true}"#)
        #expect(created.status == 201, "\(created.text)")
        let id = try #require(try JSONParser().parse(created.text)["id"]?.intValue)
        let control = Live.installs(120, key: key, arm: 0, coverage: 0.2, prefix: "c")
        let newArm = Live.installs(120, key: key, arm: 1, coverage: 0.2, prefix: "n")
        // The arms are equal: no harm test fires, but 120 exposed installs may have cost more than 50 denials.
        try service.post(
            Live.interleaved(control: control, rollout: newArm, grantedControl: 60, grantedRollout: 60), key: key)
        service.service.rollouts.evaluateAll()
        let held = try service.adminJSON("GET", "/v1/admin/apps/demo/rollouts/\(id)")
        #expect(held["status"] == "paused" && held["heldBy"] == ["harmBudgetExceeded"], "\(held)")
        let bound = try #require(held["figures"]?["harmBound"]?.doubleValue)
        #expect(bound > 50 && bound <= 120)
        let deliveries = try #require(
            try WebhookStore(database: service.service.database).deliveries(
                app: "demo", webhook: webhook.id, state: nil, before: nil, limit: 10))
        #expect(Set(deliveries.map(\.eventType)) == ["rollout.held", "rollout.budgetExceeded"])
        #expect(try service.client.get("/metrics").text.contains("prelude_rollout_budget_exceeded_total 1"))
    }

    @Test func simulateAndTheCreationAnswerCarryTheTimeToDetection() throws {
        let service = try Live.Service()
        let answer = try service.admin(
            "POST", "/v1/admin/apps/demo/environments/production/rollouts/simulate",
            json: #"{"feature": "microphone", \#(Live.plan), "installsPerHour": 10000, "grantRate": 0.4, "#
                + #""denialRate": 0.3}"#)
        #expect(answer.status == 200, "\(answer.text)")
        let json = try JSONParser().parse(answer.text)
        let estimates = json["estimates"]?.arrayValue ?? []
        #expect(estimates.map { $0["grantRateChange"] } == [.double(-0.02), .double(-0.05), .double(-0.1)])
        let gross = try #require(estimates.last)
        #expect(gross["outcome"] == "rolledBack", "\(gross)")
        let installs = try #require(gross["rolloutInstalls"]?.intValue)
        #expect(installs >= 100 && installs < 2000)
        // The five-point harm needs more installs than the ten-point one, and costs more denials per install.
        #expect((estimates[1]["rolloutInstalls"]?.intValue ?? 0) > installs)
        #expect(json["baseline"]?["from"] == "request")

        // Without counted traffic or a baseline in the body, the answer says what is missing.
        let bare = try service.adminJSON(
            "POST", "/v1/admin/apps/demo/rollouts/simulate", json: #"{"feature": "microphone", \#(Live.plan)}"#)
        #expect(bare["missing"] == ["installsPerHour", "grantRate", "denialRate"], "\(bare)")
        let bad = try service.admin(
            "POST", "/v1/admin/apps/demo/rollouts/simulate",
            json: #"{"feature": "microphone", \#(Live.plan), "grantRate": 2}"#)
        #expect(bad.status == 422 && bad.text.contains("/grantRate"), "\(bad.text)")

        let created = try service.adminJSON(
            "POST", "/v1/admin/apps/demo/rollouts",
            json: #"{"feature": "microphone", "key": "mic-forecast", "set": \#(Live.change), \#(Live.plan)}"#)
        #expect(created["forecast"]?["missing"] != nil, "\(created)")
    }

    /// Content gate: a rollout whose new copy has a lint error in any locale does not start (422 naming it).
    @Test func aRolloutWithALintErrorInItsCopyDoesNotStart() throws {
        let service = try Live.Service()
        let change =
            #"{"copy": {"en": {"prime": {"title": "Talk to us"}}, "fr": {"prime": {"continueLabel": "Autoriser"}}}}"#
        let refused = try service.admin(
            "POST", "/v1/admin/apps/demo/rollouts",
            json: #"{"feature": "microphone", "key": "mic-lint", "set": \#(change), \#(Live.plan), "start": true}"#)
        #expect(refused.status == 422, "\(refused.text)")
        let problem = try JSONParser().parse(refused.text)
        #expect(problem["type"] == "urn:prelude:problem:rollout-content")
        let pointers = problem["errors"]?.arrayValue?.compactMap { $0["pointer"]?.stringValue } ?? []
        #expect(pointers.contains { $0.hasSuffix("/set/copy/fr/prime/continueLabel") }, "\(pointers)")
        let list = try service.adminJSON("GET", "/v1/admin/apps/demo/rollouts")
        #expect(list["rollouts"] == [], "nothing was stored")

        let draft = try service.adminJSON(
            "POST", "/v1/admin/apps/demo/rollouts",
            json: #"{"feature": "microphone", "key": "mic-lint", "set": \#(change), \#(Live.plan)}"#)
        let id = try #require(draft["id"]?.intValue)
        let start = try service.admin("POST", "/v1/admin/apps/demo/rollouts/\(id)/start")
        #expect(start.status == 422 && start.text.contains("rollout-content"), "\(start.text)")
        #expect(try service.adminJSON("GET", "/v1/admin/apps/demo/rollouts/\(id)")["status"] == "draft")
    }

    /// Templates per environment: a rollout names one and overrides members; the environment's floor refuses a
    /// weaker plan, naming each member.
    @Test func templatesFillAPlanAndTheFloorRefusesAWeakerOne() throws {
        let service = try Live.Service()
        let base = "/v1/admin/apps/demo/environments/production/rollout-templates"
        let floor = try service.admin("PUT", base + "/floor", json: #"{"harmBudget": 200, "minimumHoldSeconds": 600}"#)
        #expect(floor.status == 200, "\(floor.text)")
        let standard = try service.admin(
            "PUT", base + "/standard",
            json: #"{\#(Live.plan), "harmBudget": 150, "segments": ["locale"], "actions": {"signal": "hold"}}"#)
        #expect(standard.status == 200, "\(standard.text)")
        let bad = try service.admin("PUT", base + "/bad", json: #"{"harmBudget": 0, "colour": "red"}"#)
        #expect(bad.status == 422 && bad.text.contains("/colour") && bad.text.contains("/harmBudget"), "\(bad.text)")
        let listed = try service.adminJSON("GET", base)
        #expect(listed["templates"]?.arrayValue?.map { $0["name"] } == ["floor", "standard"])

        let weak = try service.admin(
            "POST", "/v1/admin/apps/demo/rollouts",
            json: #"{"feature": "microphone", "key": "mic-weak", "set": \#(Live.change), "#
                + #""steps": [{"percent": 10, "minimumHoldSeconds": 60}, {"percent": 100}]}"#)
        #expect(weak.status == 422, "\(weak.text)")
        #expect(weak.text.contains("/harmBudget") && weak.text.contains("/steps/0/minimumHoldSeconds"), "\(weak.text)")

        let made = try service.admin(
            "POST", "/v1/admin/apps/demo/rollouts",
            json: #"{"feature": "microphone", "key": "mic-template", "set": \#(Live.change), "template": "standard", "#
                + #""actions": {"harm": "rollback"}}"#)
        #expect(made.status == 201, "\(made.text)")
        let plan = try JSONParser().parse(made.text)["plan"]
        #expect(plan?["template"] == "standard" && plan?["harmBudget"] == 150 && plan?["segments"] == ["locale"])
        #expect(plan?["actions"]?["signal"] == "hold" && plan?["actions"]?["harm"] == "rollback")
        let unknown = try service.admin(
            "POST", "/v1/admin/apps/demo/rollouts",
            json: #"{"feature": "microphone", "key": "mic-x", "set": \#(Live.change), "template": "nope"}"#)
        #expect(unknown.status == 422 && unknown.text.contains("/template"), "\(unknown.text)")
        #expect(try service.admin("DELETE", base + "/standard").status == 204)
        #expect(try service.admin("DELETE", base + "/standard").status == 404)
    }
}
