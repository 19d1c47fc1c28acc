import Foundation
import PreludeCore
import PreludeStorage
import PreludeStore
import Testing

/// The outbox: a publish writes its deliveries in its own transaction, for the subscribers of its event type only,
/// with the revision numbers and the diff; the dispatcher's claim, attempt record and redelivery.
@Suite struct WebhookOutboxTests {
    static let v1 = Array(#"{"app":{"id":"a","name":"A"},"features":{"camera":{"strategy":"prime"}}}"#.utf8)
    static let v2 = Array(#"{"app":{"id":"a","name":"A"},"features":{"camera":{"strategy":"direct"}}}"#.utf8)

    static func makeApp() throws -> (Database, PolicyRepository, WebhookStore) {
        let database = try PolicyRepositoryTests.makeDatabase()
        let repository = PolicyRepository(database: database)
        try repository.createApp(app: "a", name: "A", canonical: v1, author: "ops", message: nil, detail: [:], at: 10)
        return (database, repository, WebhookStore(database: database))
    }

    static func pendingCount(_ database: Database) throws -> Int64 {
        try database.read { try $0.scalar("SELECT count(*) FROM webhook_deliveries", as: Int64.self) } ?? -1
    }

    /// Subscribes `url` of app `a` to `events` (as `ops`).
    @discardableResult
    static func subscribe(
        _ store: WebhookStore, _ events: [WebhookEventType], url: String = "https://h/1", secret: String = "whsec_x",
        environments: [String]? = nil, enabled: Bool = true, at time: Int64 = 11
    ) throws -> Webhook {
        try store.create(
            app: "a", url: url, secret: secret, events: events, environments: environments, description: nil,
            enabled: enabled, actor: "ops", at: time)
    }

    /// Publishes `canonical` to app `a`'s production environment (as `ops`); the new revision's number.
    @discardableResult
    static func publish(
        _ repository: PolicyRepository, _ canonical: [UInt8], action: String = "policy.replace", message: String? = nil,
        at time: Int64, requiringLive expected: Int?? = nil, events: [WebhookEventType] = [.revisionPublished]
    ) throws -> Int {
        try repository.publish(
            app: "a", environment: "production", name: "A", canonical: canonical, author: "ops", action: action,
            message: message, detail: [:], at: time, requiringLive: expected, events: events)
    }

    @Test func publishEnqueuesOneDeliveryPerSubscriberWithTheDiff() throws {
        let (database, repository, store) = try Self.makeApp()
        defer { database.close() }
        let both = try Self.subscribe(store, [.revisionPublished, .revisionRolledBack])
        try Self.subscribe(store, [.revisionRolledBack], url: "https://h/2", secret: "whsec_y", at: 12)
        try Self.subscribe(store, [.revisionPublished], url: "https://h/3", secret: "whsec_z", enabled: false, at: 13)
        let revision = try Self.publish(repository, Self.v2, message: "go", at: 20)
        #expect(revision == 2)
        let deliveries = try #require(
            try store.deliveries(app: "a", webhook: both.id, state: nil, before: nil, limit: 10))
        #expect(deliveries.count == 1)
        #expect(try Self.pendingCount(database) == 1)  // not the rollback-only one, not the disabled one
        let delivery = try #require(deliveries.first)
        #expect(
            delivery.state == .pending && delivery.nextAttemptAt == 20 && delivery.eventType == "revision.published")
        #expect(delivery.id.hasPrefix("msg_") && !delivery.id.contains("."))
        let data = try JSONValue(parsing: delivery.data)
        #expect(data["revision"]?["before"] == .integer(1))
        #expect(data["revision"]?["after"] == .integer(2))
        #expect(data["environment"] == .string("production"))
        #expect(data["actor"] == .string("ops"))
        #expect(data["diff"]?["changeCount"] == .integer(1))
        #expect(data["diff"]?["changes"]?[0]?["pointer"] == .string("/features/camera/strategy"))
        #expect(data["diff"]?["changes"]?[0]?["to"] == .string("direct"))

        try Self.publish(repository, Self.v1, action: "policy.rollback", at: 30, events: [.revisionRolledBack])
        #expect(try Self.pendingCount(database) == 3)
    }

    @Test func aWebhookHearsOnlyItsEnvironments() throws {
        let (database, repository, store) = try Self.makeApp()
        defer { database.close() }
        let staging = try Self.subscribe(store, [.revisionPublished], environments: ["staging"])
        let every = try Self.subscribe(store, [.revisionPublished], url: "https://h/2", secret: "whsec_y", at: 12)
        #expect(staging.environments == ["staging"] && every.environments == nil)
        try Self.publish(repository, Self.v2, at: 20)
        // The staging environment's first revision (a copy) is a publish there, with no revision before it.
        try repository.createEnvironment(
            app: "a", name: "staging", first: (canonical: Self.v1, message: nil), actor: "ops", detail: [:], at: 30)
        let heard = try #require(try store.deliveries(app: "a", webhook: staging.id, state: nil, before: nil, limit: 9))
        #expect(heard.map(\.environment) == ["staging"])
        let data = try JSONValue(parsing: try #require(heard.first).data)
        #expect(data["environment"] == .string("staging") && data["revision"]?["before"] == .null)
        let all = try #require(try store.deliveries(app: "a", webhook: every.id, state: nil, before: nil, limit: 9))
        #expect(all.map(\.environment) == ["staging", "production"])  // newest first
        // Widened to every environment: production's next change reaches it too.
        _ = try store.update(app: "a", id: staging.id, .init(environments: .some(nil)), actor: "ops", at: 40)
        #expect(try store.webhook(app: "a", id: staging.id)?.environments == nil)
        try Self.publish(repository, Self.v1, at: 50)
        let now = try #require(try store.deliveries(app: "a", webhook: staging.id, state: nil, before: nil, limit: 9))
        #expect(now.map(\.environment) == ["production", "staging"])
    }

    @Test func aRefusedPublishEnqueuesNothing() throws {
        let (database, repository, store) = try Self.makeApp()
        defer { database.close() }
        try Self.subscribe(store, [.revisionPublished])
        #expect(throws: PolicyRepository.Refusal.stale) {
            try Self.publish(repository, Self.v2, at: 20, requiringLive: .some(9))
        }
        #expect(try Self.pendingCount(database) == 0)
    }

    @Test func enqueueRollsBackWithTheCallersTransaction() throws {
        let (database, _, store) = try Self.makeApp()
        defer { database.close() }
        try Self.subscribe(store, [.changeRequestCreated])
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try database.write { db in
                let ids = try WebhookOutbox.enqueue(
                    db, app: "a", environment: "production", type: .changeRequestCreated, data: ["id": 1], at: 20)
                #expect(ids.count == 1)
                throw Abort()
            }
        }
        #expect(try Self.pendingCount(database) == 0)
    }

    @Test func claimRecordAndRedeliver() throws {
        let (database, repository, store) = try Self.makeApp()
        defer { database.close() }
        let webhook = try Self.subscribe(store, [.revisionPublished])
        try Self.publish(repository, Self.v2, at: 20)
        #expect(try store.due(now: 19, limit: 10).isEmpty)
        let due = try #require(try store.due(now: 20, limit: 10).first)
        #expect(due.url == "https://h/1" && due.secret == "whsec_x")
        #expect(try store.claim(due.delivery.id, expected: 20, until: 100))
        #expect(try !store.claim(due.delivery.id, expected: 20, until: 100))  // someone holds it
        #expect(try store.due(now: 99, limit: 10).isEmpty)
        #expect(try store.nextDue() == 100)
        try store.record(
            WebhookAttempt(number: 1, startedAt: 21, durationMilliseconds: 5, status: 500, error: "answered 500"),
            of: due.delivery.id, resolution: .retry(at: 50))
        try store.record(
            WebhookAttempt(number: 2, startedAt: 50, durationMilliseconds: 5, status: 410, error: "answered 410"),
            of: due.delivery.id, resolution: .failedDisablingWebhook(reason: "410 Gone"))
        let (failed, attempts) = try #require(
            try store.delivery(app: "a", webhook: webhook.id, delivery: due.delivery.id))
        #expect(failed.state == .failed && failed.attempts == 2 && failed.lastStatus == 410)
        #expect(failed.nextAttemptAt == nil && failed.lastError == "answered 410")
        #expect(attempts.map(\.number) == [1, 2] && attempts.map(\.status) == [500, 410])
        let disabled = try #require(try store.webhook(app: "a", id: webhook.id))
        #expect(!disabled.enabled && disabled.disabledReason == "410 Gone")
        #expect(throws: WebhookStore.Refusal.webhookDisabled(webhook.id)) {
            try store.redeliver(app: "a", webhook: webhook.id, delivery: due.delivery.id, actor: "ops", at: 60)
        }
        _ = try store.update(app: "a", id: webhook.id, .init(enabled: true), actor: "ops", at: 61)
        let again = try store.redeliver(app: "a", webhook: webhook.id, delivery: due.delivery.id, actor: "ops", at: 62)
        #expect(again.id == due.delivery.id && again.state == .pending && again.runAttempts == 0)
        #expect(again.nextAttemptAt == 62 && again.attempts == 2)
        let audit = try AuditLog(database: database).entries(matching: AuditLog.Filter(app: "a"), limit: 10)
        #expect(audit.map(\.action).prefix(2) == ["webhook.redeliver", "webhook.update"])
        #expect(!audit.contains { $0.detail.contains("whsec_") })
    }

    @Test func deletingTheAppOrWebhookDeletesItsDeliveries() throws {
        let (database, repository, store) = try Self.makeApp()
        defer { database.close() }
        let webhook = try Self.subscribe(store, [.revisionPublished])
        try Self.publish(repository, Self.v2, at: 20)
        try store.delete(app: "a", id: webhook.id, actor: "ops", at: 30)
        #expect(try Self.pendingCount(database) == 0)
        #expect(throws: WebhookStore.Refusal.unknownWebhook(webhook.id)) {
            try store.delete(app: "a", id: webhook.id, actor: "ops", at: 31)
        }
        #expect(throws: WebhookStore.Refusal.unknownApp("b")) {
            try store.create(
                app: "b", url: "https://h", secret: "s", events: [], description: nil, enabled: true, actor: "ops",
                at: 1)
        }
    }
}
