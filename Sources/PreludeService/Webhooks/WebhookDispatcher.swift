import PreludeCore
import PreludeHTTP
import PreludeHTTPClient
import PreludeStore
import Synchronization

#if canImport(FoundationEssentials)
    import Dispatch
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

/// The primary's webhook sender: the I/O shell around ``WebhookDeliveryMachine``. One thread takes the due
/// deliveries from the outbox (``WebhookStore/due(now:limit:)``), claims each, checks its URL against the allowlist,
/// posts it signed (Standard Webhooks headers) with the product's one outbound client, and records the attempt and
/// its resolution (docs/webhooks.md). A read replica never runs one.
///
/// At least once: a delivery stays pending until a receiver's 2xx is recorded, so one sent just before a kill -9 is
/// sent again after the restart, with the same `webhook-id` (the receiver's dedupe key).
///
/// A leader-only entry of a primary's ``BackgroundServices`` (``LeaderWork/webhooks``), run by a ``WorkerThread``.
package final class WebhookDispatcher: Sendable {
    /// Counts since start, for /metrics.
    package struct Statistics: Sendable, Equatable {
        /// Attempts made.
        package var attempts = 0
        /// Deliveries a receiver acknowledged.
        package var delivered = 0
        /// Attempts that failed (each retried or, at the end of a run, failed).
        package var failedAttempts = 0
    }

    /// The outbound exchange's bounds: a receiver gets 15 s in all (Standard Webhooks recommends 15–30 s), 5 s of
    /// them to connect, and its answer is read up to 64 KiB (only the status matters); redirects are never followed.
    package static func clientConfiguration(caFile: String?) -> HTTPClientConfiguration {
        HTTPClientConfiguration(
            timeout: 15, connectTimeout: 5, maxResponseSize: 64 << 10, caFile: caFile, followRedirects: false,
            userAgent: "prelude-webhooks/\(ServiceInfo.version)")
    }

    private let store: WebhookStore
    private let allowlist: WebhookAllowlist
    private let client: HTTPClient
    private let machine: WebhookDeliveryMachine
    private let clock: ServiceClock
    private let random: @Sendable () -> Double
    private let logger: Logger
    private let idleLook: Double
    private let stats = Mutex(Statistics())
    private let worker: WorkerThread
    private let threaded: Bool
    /// One pass at a time: the thread's and a test's ``runDue()``.
    private let passLock = Mutex(())

    /// A dispatcher of `store`'s outbox.
    ///
    /// - Parameters:
    ///   - clock: "now" for due times, attempt times and `webhook-timestamp` (tests inject one).
    ///   - random: jitter in [0, 1) for the backoff (tests inject one).
    ///   - idleLook: the longest the thread sleeps before looking at the outbox again, in seconds of real time
    ///     (another process — `prelude policy import` — may have enqueued).
    ///   - threaded: false: ``start(gate:)`` starts no thread, the owner calls ``runDue()`` (tests on an injected
    ///     clock).
    package init(
        store: WebhookStore, allowlist: WebhookAllowlist, client: HTTPClient, logger: Logger,
        machine: WebhookDeliveryMachine = WebhookDeliveryMachine(), clock: ServiceClock = .system,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }, idleLook: Double = 0.5,
        threaded: Bool = true
    ) {
        worker = WorkerThread(name: "webhooks", closedLook: idleLook) { [client] in client.abort() }
        self.threaded = threaded
        self.store = store
        self.allowlist = allowlist
        self.client = client
        self.logger = logger
        self.machine = machine
        self.clock = clock
        self.random = random
        self.idleLook = idleLook
    }

    /// Counts since start.
    package var statistics: Statistics { stats.withLock { $0 } }

    /// Deliveries waiting (pending, any webhook).
    package func pendingDeliveries() throws -> Int { try store.pendingCount() }

    /// Sends every delivery due now, one after another; returns how many attempts were made. The thread calls it;
    /// tests with an injected clock call it directly.
    @discardableResult
    package func runDue() -> Int {
        return passLock.withLock { _ in
            var attempts = 0
            while !worker.isStopping {
                let due: [WebhookStore.Due]
                do {
                    due = try store.due(now: clock.milliseconds, limit: 50)
                } catch {
                    logger.error("webhook outbox read failed", ["error": "\(error)"])
                    return attempts
                }
                if due.isEmpty { return attempts }
                for item in due where !worker.isStopping {
                    if attempt(item) { attempts += 1 }
                }
            }
            return attempts
        }
    }

    /// One pass of the thread: every due delivery, then a sleep until the next is due or the idle look.
    private func pass() -> WorkerThread.Pause {
        runDue()
        var wait = idleLook
        if let next = try? store.nextDue() {
            wait = min(wait, max(0, Double(next - clock.milliseconds) / 1000))
        }
        return .after(wait)
    }

    /// One attempt of `item`; false when another dispatcher claimed it first.
    private func attempt(_ item: WebhookStore.Due) -> Bool {
        let delivery = item.delivery
        let start = clock.milliseconds
        // The claim outlasts the whole exchange: nobody else sends it meanwhile, and a kill -9 leaves it due again.
        let lease = start + Int64((client.configuration.timeout + 5) * 1000)
        do {
            guard let expected = delivery.nextAttemptAt,
                try store.claim(delivery.id, expected: expected, until: lease)
            else { return false }
        } catch {
            logger.error("webhook claim failed", ["delivery": delivery.id, "error": "\(error)"])
            return false
        }
        let outcome = send(item, at: start)
        let end = clock.milliseconds
        let runAttempt = delivery.runAttempts + 1
        let (resolution, error) = machine.resolve(runAttempt: runAttempt, outcome: outcome, now: end, random: random())
        var status: Int?
        if case .response(let code, _) = outcome { status = code }
        let record = WebhookAttempt(
            number: delivery.attempts + 1, startedAt: start, durationMilliseconds: max(0, end - start), status: status,
            error: error)
        do {
            try store.record(record, of: delivery.id, resolution: resolution)
        } catch {
            // Not recorded: the claim runs out and the delivery is sent again, with the same id.
            logger.error("webhook attempt not recorded", ["delivery": delivery.id, "error": "\(error)"])
        }
        stats.withLock { stats in
            stats.attempts += 1
            if resolution == .delivered { stats.delivered += 1 } else { stats.failedAttempts += 1 }
        }
        switch resolution {
        case .delivered: break
        case .retry:
            if runAttempt == 1 {
                logger.warning(
                    "webhook delivery failed; retrying",
                    ["delivery": delivery.id, "webhook": delivery.webhookID, "error": error ?? ""])
            }
        case .failed, .failedDisablingWebhook:
            logger.error(
                "webhook delivery failed",
                ["delivery": delivery.id, "webhook": delivery.webhookID, "error": error ?? ""],
                numbers: ["attempts": Double(runAttempt)])
        }
        return true
    }

    private func send(_ item: WebhookStore.Due, at start: Int64) -> WebhookDeliveryMachine.Outcome {
        let url: WebhookURL
        switch allowlist.check(item.url) {
        case .success(let checked): url = checked
        case .failure(let refusal): return .refused(refusal.description)
        }
        guard let key = WebhookSecret.key(item.secret) else {
            return .refused("the webhook's secret is not a whsec_ secret of 24–64 bytes; rotate it")
        }
        let body = WebhookMessage.body(item.delivery)
        let timestamp = start / 1000
        let headers = [
            ("Content-Type", "application/json"), ("webhook-id", item.delivery.id),
            ("webhook-timestamp", String(timestamp)),
            (
                "webhook-signature",
                WebhookSignature.sign(id: item.delivery.id, timestamp: timestamp, body: body, key: key)
            ),
        ]
        do {
            let response = try client.send("POST", url: url.text, headers: headers, body: body)
            return .response(
                status: response.status, retryAfter: response.header("Retry-After").flatMap { Double($0) })
        } catch {
            return .transportFailure(Self.explain(error))
        }
    }

    private static func explain(_ error: HTTPClientError) -> String {
        switch error.kind {
        case .tls: "TLS failed: \(error.detail)"
        case .timedOut: "no answer in time: \(error.detail)"
        case .tooLarge: "the answer was larger than 64 KiB"
        case .connect: "could not connect: \(error.detail)"
        case .resolve: "could not resolve the host: \(error.detail)"
        default: error.detail
        }
    }

    /// Registers the webhook metric families.
    package func register(on registry: MetricsRegistry) {
        registry.gauge("prelude_webhook_pending_deliveries", help: "Webhook deliveries waiting to be sent.") { [self] in
            Double((try? pendingDeliveries()) ?? 0)
        }
        registry.counter("prelude_webhook_attempts_total", help: "Webhook delivery attempts made.") { [self] in
            Double(statistics.attempts)
        }
        registry.counter(
            "prelude_webhook_delivered_total", help: "Webhook deliveries a receiver acknowledged with a 2xx."
        ) { [self] in Double(statistics.delivered) }
        registry.counter(
            "prelude_webhook_failed_attempts_total",
            help: "Webhook delivery attempts that failed (retried or given up)."
        ) { [self] in Double(statistics.failedAttempts) }
    }
}

extension WebhookDispatcher: BackgroundService {
    /// "webhooks".
    package var name: String { worker.name }

    /// Starts the thread (unless made with `threaded: false`). No-op when already started.
    package func start(gate: RunGate) {
        guard threaded else { return }
        worker.start(gate: gate) { [self] in pass() }
    }

    /// Asks the thread to look at the outbox now (after an enqueue or a redelivery in this process).
    package func wake() { worker.wake() }

    /// Stops the thread, aborting an attempt in progress (the delivery stays pending and is due again when its
    /// claim runs out), and waits for it.
    package func stop() { worker.stop() }
}
