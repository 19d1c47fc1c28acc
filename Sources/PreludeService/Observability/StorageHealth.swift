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

/// Whether the database's writes are failing on storage (a full disk, I/O errors, a read-only file system), fed by
/// every write transaction's outcome (``Database/observeWriteOutcomes(_:)``).
///
/// A write that fails with a storage fault (``StorageError/storageFault``, other than `busy`) marks writes as
/// failing: `/readyz` answers 503 naming the fault, and `prelude_storage_writes_failing` is 1. The next write that
/// commits clears it, and so does a successful probe: while writes fail, `/readyz` runs ``probeIfDue()`` (at most
/// once per `probeInterval`), a transaction that allocates pages (a scratch table with a 64 KiB blob, dropped in the
/// same transaction) and commits, so a service that a load balancer took out of rotation notices by itself when
/// space is back.
package final class StorageHealth: Sendable {
    /// Seconds a client is told to wait (`Retry-After`) after a storage failure.
    package static let retryAfterSeconds = 30

    private struct State {
        var failing: StorageError.StorageFault?
        var failures: [StorageError.StorageFault: Int] = [:]
        var lastProbe: Double = -.infinity
        var probes = 0
    }

    private let database: Database
    private let clock: ServiceClock
    private let probeInterval: Double
    private let state = Mutex(State())

    /// Health of `database`'s writes; installs the outcome observer. `clock` spaces the probes.
    package init(
        database: Database, probeInterval: Double = 5,
        clock: ServiceClock = .system
    ) {
        self.database = database
        self.probeInterval = probeInterval
        self.clock = clock
        database.observeWriteOutcomes { [weak self] failure in self?.record(failure) }
    }

    /// Accounts for one write transaction's outcome (nil: committed).
    package func record(_ failure: (any Error)?) {
        guard let failure else {
            state.withLock { $0.failing = nil }
            return
        }
        guard let fault = (failure as? StorageError)?.storageFault else { return }
        state.withLock { state in
            state.failures[fault, default: 0] += 1
            if fault != .busy { state.failing = fault }
        }
    }

    /// The fault writes are failing with now, or nil when the last write committed.
    package var failingFault: StorageError.StorageFault? { state.withLock { $0.failing } }

    /// Writes that failed on storage since start, by fault.
    package var failures: [StorageError.StorageFault: Int] { state.withLock { $0.failures } }

    /// Probe transactions run since start.
    package var probes: Int { state.withLock { $0.probes } }

    /// While writes are failing and no probe ran in the last `probeInterval` seconds, runs a probe write (its
    /// outcome updates the state like any write). Returns the fault writes are failing with afterwards.
    @discardableResult
    package func probeIfDue() -> StorageError.StorageFault? {
        let now = clock.seconds
        let due = state.withLock { state -> Bool in
            guard state.failing != nil, now - state.lastProbe >= probeInterval || now < state.lastProbe else {
                return false
            }
            state.lastProbe = now
            state.probes += 1
            return true
        }
        if due {
            // A write that needs new pages (StorageProbe): it fails while no page can be added.
            _ = try? StorageProbe.run(database)
        }
        return failingFault
    }

    /// The problem answered for a request whose write failed with `error`, when it is a storage failure:
    /// 503 with `Retry-After`, type ``fullType`` for SQLITE_FULL, ``unavailableType`` otherwise. Nil for any
    /// other error.
    package static func problem(for error: any Error) -> ProblemDetails? {
        guard let fault = (error as? StorageError)?.storageFault else { return nil }
        let headers: HTTPHeaders = ["Retry-After": "\(retryAfterSeconds)"]
        switch fault {
        case .full:
            return ProblemDetails(
                status: .serviceUnavailable, type: fullType, title: "Storage full",
                detail: "the database's storage is full; nothing was stored, retry later", headers: headers)
        case .ioError, .readOnly, .busy:
            return ProblemDetails(
                status: .serviceUnavailable, type: unavailableType, title: "Storage unavailable",
                detail: "the database could not be written (\(fault.rawValue)); nothing was stored, retry later",
                headers: headers)
        }
    }

    /// Problem type of a write refused because the storage is full.
    package static let fullType = "urn:prelude:problem:storage-full"
    /// Problem type of a write that failed on storage otherwise (I/O error, read-only, lock held elsewhere).
    package static let unavailableType = "urn:prelude:problem:storage-unavailable"

    /// Registers `prelude_storage_write_failures_total{fault}` and `prelude_storage_writes_failing`.
    package func register(on registry: MetricsRegistry) {
        registry.register(
            ObservedMetric(
                name: "prelude_storage_write_failures_total",
                help: "Database write transactions that failed on storage, by fault (full, io_error, read_only, busy).",
                type: .counter, labelNames: ["fault"]
            ) { [self] in
                let counts = failures
                return StorageError.StorageFault.allCases.map {
                    ObservedMetric.Sample([$0.rawValue], Double(counts[$0] ?? 0))
                }
            })
        registry.gauge(
            "prelude_storage_writes_failing",
            help: "1 while database writes fail on storage (the last write failed; /readyz answers 503), else 0."
        ) { [self] in failingFault == nil ? 0 : 1 }
        // Measured at scrape time, as database exporters do: what a request's read would wait now.
        let database = self.database
        registry.gauge(
            "prelude_db_round_trip_seconds",
            help:
                "Seconds a trivial read (SELECT 1 on a pooled reader) took at this scrape; NaN when the database did not"
                + " answer."
        ) { (try? database.roundTripSeconds()) ?? .nan }
        registry.counter(
            "prelude_db_reconnects_total",
            help: "PostgreSQL sessions opened again after the server dropped them (a restart, a failover); 0 on SQLite."
        ) { Double(Database.reconnects) }
    }
}

extension StorageError.StorageFault: CustomStringConvertible {
    /// Words for `/readyz` and logs, e.g. "storage full".
    package var description: String {
        switch self {
        case .full: "storage full"
        case .ioError: "I/O error"
        case .readOnly: "file system read-only"
        case .busy: "database locked by another process"
        }
    }
}
