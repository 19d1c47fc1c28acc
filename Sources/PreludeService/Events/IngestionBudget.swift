import PreludeHTTP
import PreludeStore
import Synchronization

#if canImport(FoundationEssentials)
    import Dispatch
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

/// How many events one install and one client address may send: a ``TokenBucketTable`` per kind, one token per
/// event. A batch over either budget is refused whole with 429 and `Retry-After` (RFC 6585 §4), nothing of it
/// stored and nothing spent; a batch within both spends from both.
///
/// The client address follows ``TrustedProxies`` (the socket peer unless it is a trusted proxy). A rate of 0
/// turns that kind of budget off. Defaults and settings: docs/configuration.md; the reasoning: docs/security.md.
package final class IngestionBudget: Sendable {
    /// The two budgets.
    package enum Kind: String, Sendable, CaseIterable {
        /// Per install id (`installId` of each event).
        case install
        /// Per client address.
        case address
    }

    /// The settings of one kind: tokens (events) per second and the burst.
    package struct Limit: Sendable, Equatable {
        /// Events per second returned to the budget; 0 turns the budget off.
        package var rate: Double
        /// The most events spent at once (at least one full batch, ``EventBatch/maxEvents``).
        package var burst: Int

        /// A limit of `rate` events per second and `burst` at once.
        package init(rate: Double, burst: Int) {
            self.rate = rate
            self.burst = burst
        }
    }

    /// Problem type of a batch over budget.
    package static let problemType = "urn:prelude:problem:ingestion-budget"

    private struct Tables: Sendable {
        var installs: TokenBucketTable<String>?
        var addresses: TokenBucketTable<String>?
    }

    private let tables: Mutex<Tables>
    private let refusals = Mutex<[Kind: Int]>([:])
    private let proxies: TrustedProxies
    private let clock: ServiceClock
    /// The limits in force.
    package let install: Limit
    /// The limits in force.
    package let address: Limit

    /// A budget with these limits; the buckets refill by `clock`'s time (injected in tests).
    package init(
        install: Limit, address: Limit, proxies: TrustedProxies = TrustedProxies(), capacity: Int = 100_000,
        clock: ServiceClock = .system
    ) {
        self.install = install
        self.address = address
        self.proxies = proxies
        self.clock = clock
        func table(_ limit: Limit) -> TokenBucketTable<String>? {
            limit.rate > 0 ? TokenBucketTable(rate: limit.rate, burst: Double(limit.burst), capacity: capacity) : nil
        }
        tables = Mutex(Tables(installs: table(install), addresses: table(address)))
    }

    /// The budget the configuration describes.
    package convenience init(_ configuration: ServiceConfiguration) {
        self.init(
            install: Limit(rate: configuration.eventsPerInstallPerSecond, burst: configuration.eventsPerInstallBurst),
            address: Limit(rate: configuration.eventsPerAddressPerSecond, burst: configuration.eventsPerAddressBurst),
            proxies: configuration.trustedProxies)
    }

    /// The client address of `request` (see ``TrustedProxies``).
    package func clientAddress(_ request: HTTPRequest) -> String {
        proxies.clientAddress(
            remoteAddress: request.remoteAddress, forwardedFor: request.headers.values(for: "X-Forwarded-For"))
    }

    /// Refuses early (429) a request from an address with no event left in its budget, before its body is decoded.
    package func precheck(address: String) throws(ProblemDetails) {
        let now = clock.seconds
        let wait = tables.withLock { $0.addresses?.wait(address, cost: 1, now: now) ?? 0 }
        if wait > 0 { throw refusal(.address, wait: wait) }
    }

    /// Spends the batch's events from the address's budget and from each install's, or refuses the whole batch
    /// with 429 (spending nothing) when any of them has too few left.
    package func admit(_ batch: EventBatch, address: String) throws(ProblemDetails) {
        let now = clock.seconds
        // Events per install; a batch nearly always carries one install (the SDK sends one device's events).
        var perInstall: [(String, Double)] = []
        if let first = batch.events.first?.installID, batch.events.allSatisfy({ $0.installID == first }) {
            perInstall = [(first, Double(batch.events.count))]
        } else {
            var counts: [String: Double] = [:]
            for event in batch.events { counts[event.installID, default: 0] += 1 }
            perInstall = counts.sorted { $0.key < $1.key }
        }
        let cost = Double(batch.events.count)
        let refused = tables.withLock { tables -> (Kind, Double)? in
            if let wait = tables.addresses?.wait(address, cost: cost, now: now), wait > 0 { return (.address, wait) }
            if let installs = tables.installs {
                let wait = perInstall.map { installs.wait($0.0, cost: $0.1, now: now) }.max() ?? 0
                if wait > 0 { return (.install, wait) }
            }
            tables.addresses?.spend(address, cost: cost, now: now)
            for (install, count) in perInstall { tables.installs?.spend(install, cost: count, now: now) }
            return nil
        }
        if let (kind, wait) = refused { throw refusal(kind, wait: wait) }
    }

    /// Batches refused since start, by kind.
    package var refused: [Kind: Int] { refusals.withLock { $0 } }

    private func refusal(_ kind: Kind, wait: Double) -> ProblemDetails {
        refusals.withLock { $0[kind, default: 0] += 1 }
        let limit = kind == .install ? install : address
        // A batch larger than the burst never fits; the limits are validated so that this cannot happen (burst ≥
        // the largest batch), but keep Retry-After finite, at most a day, and the conversion in Int's range anyway.
        let seconds = wait.isFinite ? Int(min(max(1, wait.rounded(.up)), 86_400)) : 60
        let subject = kind == .install ? "an install" : "this client address"
        return ProblemDetails(
            status: .tooManyRequests, type: Self.problemType, title: "Event budget exceeded",
            detail:
                "\(subject) may send \(DecimalText.format(limit.rate)) events per second (bursts of \(limit.burst)); "
                + "nothing of this batch was stored, retry in \(seconds) s",
            headers: ["Retry-After": "\(seconds)"])
    }

    /// Registers `prelude_events_budget_refusals_total{budget}`.
    package func register(on registry: MetricsRegistry) {
        registry.register(
            ObservedMetric(
                name: "prelude_events_budget_refusals_total",
                help: "Event batches refused with 429 because an install or a client address was over its budget.",
                type: .counter, labelNames: ["budget"]
            ) { [self] in
                let counts = refused
                return Kind.allCases.map { ObservedMetric.Sample([$0.rawValue], Double(counts[$0] ?? 0)) }
            })
    }
}

/// A rate for humans: whole numbers without a fraction, others with up to two decimals.
private enum DecimalText {
    static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        let hundredths = Int((abs(value) * 100).rounded())
        let fraction = hundredths % 100
        return (value < 0 ? "-" : "") + "\(hundredths / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
    }
}
