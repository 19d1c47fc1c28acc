import PreludeStorage
import Synchronization

/// Work that must run on one node at a time when several share one PostgreSQL database (docs/scaling.md,
/// "PostgreSQL cluster"). Each kind has a leader of its own, so the work can spread over the nodes.
package enum LeaderWork: String, CaseIterable, Sendable {
    /// Scheduled publishes of approved change requests (``PublishSchedulerTask``).
    case scheduler
    /// The rollout guard's evaluations and steps (``RolloutScheduler``).
    case rollouts
    /// Webhook deliveries (``WebhookDispatcher``).
    case webhooks
    /// Event pruning (``EventRetentionTask``).
    case retention

    /// The kind's place among the cases (0…3).
    private var ordinal: Int { LeaderWork.allCases.firstIndex(of: self)! }

    /// The kind's bit in ``LeaderElection``'s set of roles held.
    var bit: Int { 1 << ordinal }

    /// The advisory lock's key: a fixed prefix ("prld" in ASCII) and the kind's place, so other applications'
    /// advisory locks on the same database are unlikely to collide.
    package var lockKey: Int64 {
        0x7072_6C64_0000_0000 + Int64(ordinal + 1)
    }
}

/// The locks a ``LeaderElection`` takes (``SessionLocks`` in the service; a fake in tests).
package protocol LeaderLockSource: Sendable {
    /// Takes lock `key` unless another node holds it; true when this node holds it now.
    func tryAcquire(_ key: Int64) throws -> Bool
    /// The keys still held (none once the session that held them was lost).
    func verify() -> Set<Int64>
    /// Gives every lock back.
    func releaseAll()
}

extension SessionLocks: LeaderLockSource {}

/// Which kinds of ``LeaderWork`` this node leads. A node that leads none keeps trying every `interval` seconds, so
/// when the leader dies (its database session ends and the server frees its locks) another node takes over within
/// about that interval; a node that leads some checks every interval that its session still holds them.
///
/// ``runOnce()`` is one round, called by the timer and directly by tests. The handler given to ``whenTaken(_:)`` runs
/// after a role is taken (the service wakes that work, so a change due during the takeover is applied at once).
/// The election is the first entry of a primary's ``BackgroundServices`` list, and the ``LeaderRoles`` that gate the
/// list's leader-only entries.
package final class LeaderElection: LeaderRoles, Sendable {
    /// Seconds between two rounds (1).
    package static let defaultInterval = 1.0

    private let locks: any LeaderLockSource
    private let logger: Logger
    private let onTaken = Mutex<(@Sendable (LeaderWork) -> Void)?>(nil)
    /// The roles held, one bit per ``LeaderWork`` case (an atomic, read by the work's threads on every run).
    private let heldBits = Atomic<Int>(0)
    private let changes = Atomic<Int>(0)
    private let timer = RepeatingTimer(label: "prelude.leader")
    /// Seconds between two rounds.
    package let interval: Double

    /// An election over `locks`, a round every `interval` seconds once started.
    package init(locks: any LeaderLockSource, logger: Logger, interval: Double = defaultInterval) {
        self.locks = locks
        self.logger = logger
        self.interval = interval
    }

    /// Tells `handler` of each role taken from now on (on the election's queue; it must not block).
    package func whenTaken(_ handler: @escaping @Sendable (LeaderWork) -> Void) {
        onTaken.withLock { $0 = handler }
    }

    /// True while this node leads `work`.
    package func leads(_ work: LeaderWork) -> Bool { heldBits.load(ordering: .acquiring) & work.bit != 0 }

    /// The kinds of work this node leads, in declaration order.
    package var roles: [LeaderWork] {
        let bits = heldBits.load(ordering: .acquiring)
        return LeaderWork.allCases.filter { bits & $0.bit != 0 }
    }

    /// How many times a role was taken or lost since start.
    package var transitions: Int { changes.load(ordering: .relaxed) }

    /// One round: drops the roles whose lock was lost, then tries to take every role not held.
    package func runOnce() {
        let still = locks.verify()
        // Only this round's thread changes the bits (the timer's queue, or a test calling runOnce).
        let lost = Set(roles.filter { !still.contains($0.lockKey) })
        for work in lost { heldBits.bitwiseAnd(~work.bit, ordering: .acquiringAndReleasing) }
        for work in LeaderWork.allCases where lost.contains(work) {
            changes.add(1, ordering: .relaxed)
            logger.warning("leader role lost", ["work": work.rawValue])
        }
        for work in LeaderWork.allCases where !leads(work) {
            let taken: Bool
            do {
                taken = try locks.tryAcquire(work.lockKey)
            } catch {
                logger.warning("leader election failed", ["work": work.rawValue, "error": "\(error)"])
                return
            }
            guard taken else { continue }
            heldBits.bitwiseOr(work.bit, ordering: .acquiringAndReleasing)
            changes.add(1, ordering: .relaxed)
            logger.info("leader role taken", ["work": work.rawValue])
            onTaken.withLock { $0 }?(work)
        }
    }

    /// `prelude_leader{work}` (1 while this node leads the work, else 0) and `prelude_leader_transitions_total`.
    package func register(on registry: MetricsRegistry) {
        registry.gauge(
            "prelude_leader", help: "1 while this node leads the work that must run once (docs/scaling.md)",
            labelNames: ["work"]
        ) { [self] in
            let current = roles
            return LeaderWork.allCases.map { ObservedMetric.Sample([$0.rawValue], current.contains($0) ? 1 : 0) }
        }
        registry.counter(
            "prelude_leader_transitions_total", help: "Leader roles taken or lost by this node since start"
        ) { [self] in Double(transitions) }
    }

}

extension LeaderElection: BackgroundService {
    /// "leader-election".
    package var name: String { "leader-election" }

    /// A first round now (so the roles are known before the leader-only entries after it start), then one every
    /// ``interval`` seconds. No-op when started.
    package func start(gate: RunGate) {
        guard !timer.isRunning else { return }
        if gate.isOpen() { runOnce() }
        timer.start(after: interval, every: interval, leeway: .milliseconds(100)) { [self] in
            if gate.isOpen() { runOnce() }
        }
    }

    /// A round soon, between two ticks.
    package func wake() { timer.runSoon() }

    /// Stops the rounds and gives every role back (it comes after the leader-only work in the list, so it stops
    /// after them).
    package func stop() {
        timer.stop()
        heldBits.store(0, ordering: .releasing)
        locks.releaseAll()
    }
}
