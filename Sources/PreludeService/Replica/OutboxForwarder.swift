import PreludeCore
import PreludeHTTP
import PreludeStorage
import PreludeStore
import Synchronization

#if canImport(FoundationEssentials)
    import Dispatch
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

/// The I/O shell around ``OutboxForwarderMachine``: one thread that sends the oldest outbox events of one app (at
/// most ``EventBatch/maxEvents``) to the primary's `POST /v1/admin/apps/{app}/events` and deletes them only after
/// the primary's 202. A replica killed in between sends them again; the primary's dedupe key (app, install id,
/// client event id) stores each event once (docs/scaling.md, "Events through replicas"). An entry of a replica's
/// ``BackgroundServices``, run by a ``WorkerThread``.
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
    private let outbox: ReplicaOutbox
    private let logger: Logger
    private let machine = Mutex(OutboxForwarderMachine())
    private let stats = Mutex(Statistics())
    private let worker: WorkerThread
    /// How long an idle forwarder waits for a wake-up before looking at the outbox anyway.
    private let idleLook: Double

    /// A forwarder of `outbox` to `client`'s primary.
    package init(client: PrimaryClient, outbox: ReplicaOutbox, logger: Logger, idleLook: Double = 1) {
        self.client = client
        worker = WorkerThread(name: "outbox-forwarder") { [client] in client.abort() }
        self.outbox = outbox
        self.logger = logger
        self.idleLook = idleLook
    }

    /// Counts since start.
    package var statistics: Statistics { stats.withLock { $0 } }

    /// Events waiting in the outbox.
    package func pendingEvents() throws -> Int {
        try outbox.count()
    }

    /// One pass of the thread: the oldest batch sent, or a sleep (idle: until events are committed or the idle
    /// look; after a failure: the backoff, which only stopping ends early).
    private func pass() -> WorkerThread.Pause {
        let batch: ReplicaOutbox.Batch?
        do {
            batch = try outbox.oldestBatch(limit: EventBatch.maxEvents)
        } catch {
            logger.error("outbox read failed", ["error": "\(error)"])
            batch = nil
        }
        let now = Date().timeIntervalSince1970
        switch machine.withLock({ $0.next(now: now, pending: batch != nil) }) {
        case .idle:
            return .until(deadline: now + idleLook, wakeable: true)
        case .sleep(let until):
            return .until(deadline: until, wakeable: false)
        case .send:
            if let batch { send(batch) }
            return .none
        }
    }

    private func send(_ batch: ReplicaOutbox.Batch) {
        let body = JSONValue.object(JSONObject([("events", .array(batch.events))])).serializedBytes()
        // Production's events go where primaries of every build take them; another environment's to its own path.
        let path =
            batch.environment == EnvironmentName.production
            ? "/v1/admin/apps/\(Self.pathSegment(batch.app))/events"
            : "/v1/admin/apps/\(Self.pathSegment(batch.app))/environments/\(batch.environment)/events"
        // The segment travels as the client sent it: the same request headers (primaries before them ignore them).
        var headers = [("Content-Type", "application/json")]
        if let osMajor = batch.segment.osMajor { headers.append((EventSegment.osMajorHeader, String(osMajor))) }
        if let locale = batch.segment.locale { headers.append((EventSegment.localeHeader, locale)) }
        do {
            let response = try client.send("POST", path, headers: headers, body: body, timeout: 30)
            switch response.status {
            case 202:
                let answer = try? JSONValue(parsing: response.body)
                try outbox.delete(batch.ids)
                stats.withLock { stats in
                    stats.forwarded += answer?["accepted"]?.intValue ?? 0
                    stats.duplicates += answer?["duplicates"]?.intValue ?? 0
                }
                machine.withLock { $0.delivered() }
            case 400, 404, 413, 415, 422:
                // Refused for good: retrying the same bytes cannot succeed. Dropped, counted and logged, so one bad
                // batch never blocks the outbox behind it.
                try outbox.delete(batch.ids)
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
            if worker.isStopping { return }
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

    /// An app id as a path segment (ids are visible ASCII; anything outside unreserved is percent-encoded).
    static func pathSegment(_ app: String) -> String {
        var segment = ""
        for byte in app.utf8 {
            let unreserved =
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: "~")
            if unreserved {
                segment.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = Array("0123456789ABCDEF".utf8)
                segment += "%" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]], as: UTF8.self)
            }
        }
        return segment
    }
}

extension OutboxForwarder: BackgroundService {
    /// "outbox-forwarder".
    package var name: String { worker.name }

    /// Starts the forwarding thread. No-op when already started.
    package func start(gate: RunGate) {
        worker.start(gate: gate) { [self] in pass() }
    }

    /// Tells the forwarder that events were committed to the outbox.
    package func wake() { worker.wake() }

    /// Stops the thread, aborting a send in progress (its events stay in the outbox), and waits for it.
    package func stop() { worker.stop() }
}
