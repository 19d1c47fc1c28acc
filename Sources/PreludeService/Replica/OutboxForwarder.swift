import Foundation
import PreludeCore
import PreludeStorage
import Synchronization

/// The I/O shell around ``OutboxForwarderMachine``: one thread that sends the oldest outbox events of one app (at
/// most ``EventBatch/maxEvents``) to the primary's `POST /v1/admin/apps/{app}/events` and deletes them only after
/// the primary's 202. A replica killed in between sends them again; the primary's dedupe key (app, install id,
/// client event id) stores each event once (docs/scaling.md, "Events through replicas").
package final class OutboxForwarder: Sendable {
    /// Counts since start, for /metrics.
    package struct Statistics: Sendable, Equatable {
        /// Events the primary stored from this replica's forwards.
        package var forwarded = 0
        /// Events the primary already had (a resent batch).
        package var duplicates = 0
        /// Events the primary refused for good (unknown app, 4xx other than auth and 429), dropped from the outbox.
        package var dropped = 0
        /// Sends that failed and will be retried.
        package var failures = 0
    }

    private let client: PrimaryClient
    private let database: Database
    private let logger: Logger
    private let machine = Mutex(OutboxForwarderMachine())
    private let stats = Mutex(Statistics())
    private let stopping = Atomic(false)
    private let pendingWork = Atomic(0)
    private let wakeUp = NSCondition()
    private let finished = DispatchSemaphore(value: 0)
    private let started = Atomic(false)
    /// How long an idle forwarder waits for a wake-up before looking at the outbox anyway.
    private let idleLook: Double

    /// A forwarder of `database`'s outbox to `client`'s primary.
    package init(client: PrimaryClient, database: Database, logger: Logger, idleLook: Double = 1) {
        self.client = client
        self.database = database
        self.logger = logger
        self.idleLook = idleLook
    }

    /// Counts since start.
    package var statistics: Statistics { stats.withLock { $0 } }

    /// Events waiting in the outbox.
    package func pendingEvents() throws -> Int {
        try database.read { try $0.scalar("SELECT count(*) FROM replica_outbox", as: Int64.self) }.map(Int.init) ?? 0
    }

    /// Tells the forwarder that events were committed to the outbox.
    package func wake() {
        pendingWork.add(1, ordering: .releasing)
        wakeUp.lock()
        wakeUp.broadcast()
        wakeUp.unlock()
    }

    /// Starts the forwarding thread. No-op when already started.
    package func start() {
        guard started.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "prelude.outbox-forwarder"
        thread.start()
    }

    /// Stops the thread, aborting a send in progress (its events stay in the outbox), and waits for it.
    package func stop() {
        stopping.store(true, ordering: .releasing)
        client.abort()
        wake()
        if started.load(ordering: .acquiring) { finished.wait() }
    }

    /// The oldest outbox events of the app whose event is oldest, at most `limit`.
    package static func oldestBatch(_ db: Connection, limit: Int = EventBatch.maxEvents) throws -> (
        app: String, ids: [Int64], events: [JSONValue]
    )? {
        guard let app = try db.scalar("SELECT app_id FROM replica_outbox ORDER BY id LIMIT 1", as: String.self)
        else { return nil }
        let rows = try db.query(
            """
            SELECT id, install_id, client_event_id, type, feature, experiment, variant, occurred_at
            FROM replica_outbox WHERE app_id = ? ORDER BY id LIMIT ?
            """, [.text(app), .integer(Int64(limit))])
        var ids: [Int64] = []
        var events: [JSONValue] = []
        for row in rows {
            ids.append(try row.get("id", as: Int64.self))
            var event = JSONObject()
            event["id"] = .string(try row.get("client_event_id", as: String.self))
            event["installId"] = .string(try row.get("install_id", as: String.self))
            event["type"] = .string(try row.get("type", as: String.self))
            event["feature"] = .string(try row.get("feature", as: String.self))
            if let experiment = try row.get("experiment", as: String?.self),
                let variant = try row.get("variant", as: String?.self)
            {
                event["experiment"] = .string(experiment)
                event["variant"] = .string(variant)
            }
            event["occurredAt"] = .integer(Int(try row.get("occurred_at", as: Int64.self)))
            events.append(.object(event))
        }
        return (app, ids, events)
    }

    private func run() {
        while !stopping.load(ordering: .acquiring) {
            let seen = pendingWork.load(ordering: .acquiring)
            let batch: (app: String, ids: [Int64], events: [JSONValue])?
            do {
                batch = try database.read { try Self.oldestBatch($0) }
            } catch {
                logger.error("outbox read failed", ["error": "\(error)"])
                batch = nil
            }
            let now = Date().timeIntervalSince1970
            switch machine.withLock({ $0.next(now: now, pending: batch != nil) }) {
            case .idle:
                sleep(until: now + idleLook, unlessWorkSince: seen)
            case .sleep(let until):
                sleep(until: until, unlessWorkSince: nil)
            case .send:
                guard let batch else { continue }
                send(batch)
            }
        }
    }

    private func sleep(until: Double, unlessWorkSince seen: Int?) {
        wakeUp.lock()
        defer { wakeUp.unlock() }
        while !stopping.load(ordering: .acquiring), Date().timeIntervalSince1970 < until {
            if let seen, pendingWork.load(ordering: .acquiring) != seen { return }
            _ = wakeUp.wait(until: Date(timeIntervalSince1970: until))
        }
    }

    private func send(_ batch: (app: String, ids: [Int64], events: [JSONValue])) {
        let body = JSONValue.object(JSONObject([("events", .array(batch.events))])).serializedBytes()
        let path = "/v1/admin/apps/\(Self.pathSegment(batch.app))/events"
        do {
            let response = try client.send(
                "POST", path, headers: [("Content-Type", "application/json")], body: body, timeout: 30)
            switch response.status {
            case 202:
                let answer = try? JSONValue(parsing: response.body)
                try delete(batch.ids)
                stats.withLock { stats in
                    stats.forwarded += answer?["accepted"]?.intValue ?? 0
                    stats.duplicates += answer?["duplicates"]?.intValue ?? 0
                }
                machine.withLock { $0.delivered() }
            case 400, 404, 413, 415, 422:
                // Refused for good: retrying the same bytes cannot succeed. Dropped, counted and logged, so one bad
                // batch never blocks the outbox behind it.
                try delete(batch.ids)
                stats.withLock { $0.dropped += batch.ids.count }
                logger.error(
                    "primary refused forwarded events; dropped",
                    [
                        "app": batch.app, "status": "\(response.status)",
                        "detail": String(decoding: response.body.prefix(300), as: UTF8.self),
                    ],
                    numbers: ["events": Double(batch.ids.count)])
                machine.withLock { $0.delivered() }
            default:
                throw PrimaryClient.Failure(
                    description: "forward answered \(response.status): "
                        + String(decoding: response.body.prefix(300), as: UTF8.self))
            }
        } catch {
            if stopping.load(ordering: .acquiring) { return }
            let failures = machine.withLock { machine in
                machine.failed(now: Date().timeIntervalSince1970, random: Double.random(in: 0..<1))
                return machine.retry.failures
            }
            stats.withLock { $0.failures += 1 }
            if failures == 1 {
                logger.warning("event forwarding failed; retrying", ["app": batch.app, "error": "\(error)"])
            }
        }
    }

    private func delete(_ ids: [Int64]) throws {
        try database.write { db in
            let delete = try db.statement("DELETE FROM replica_outbox WHERE id = ?")
            for id in ids { try delete.execute([.integer(id)]) }
        }
    }

    /// An app id as a path segment (ids are visible ASCII; anything outside unreserved is percent-encoded).
    static func pathSegment(_ app: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return app.addingPercentEncoding(withAllowedCharacters: allowed) ?? app
    }
}
