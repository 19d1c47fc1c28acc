import Synchronization

/// Which kinds of ``LeaderWork`` this node leads (``LeaderElection``; a fake in tests).
package protocol LeaderRoles: Sendable {
    /// True while this node leads `work`; cheap (read before every run of a leader-only service).
    func leads(_ work: LeaderWork) -> Bool
}

/// The background work of one role, as one declarative list (docs/architecture.md, "Background services"): started
/// in list order, stopped in reverse, the way swift-service-lifecycle's `ServiceGroup` runs an application's
/// services. An entry marked with a ``LeaderWork`` runs only while this node leads that work: its gate is
/// ``LeaderRoles/leads(_:)``, checked before every run, and ``wake(leading:)`` (called when the role is taken) wakes
/// it so work due during a takeover is done at once.
package final class BackgroundServices: Sendable {
    /// One service and where it runs.
    package struct Entry: Sendable {
        /// The service.
        package let service: any BackgroundService
        /// The work this node must lead for the service to run; nil: it runs on every node.
        package let leader: LeaderWork?

        /// A service every node runs.
        package static func everyNode(_ service: any BackgroundService) -> Entry {
            Entry(service: service, leader: nil)
        }

        /// A service that runs only while this node leads `work`.
        package static func leaderOnly(_ work: LeaderWork, _ service: any BackgroundService) -> Entry {
            Entry(service: service, leader: work)
        }
    }

    /// The list, in start order.
    package let entries: [Entry]
    private let roles: (any LeaderRoles)?
    private let state = Atomic(0)  // 0 new, 1 started, 2 stopped

    /// A list of `entries`; leader-only entries are gated by `roles` (nil: this process leads every work, as a
    /// single node does).
    package init(_ entries: [Entry], roles: (any LeaderRoles)?) {
        self.entries = entries
        self.roles = roles
    }

    /// The services' names in start order.
    package var names: [String] { entries.map(\.service.name) }

    /// Starts every entry in list order. Once only.
    package func start() {
        guard state.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged else {
            return
        }
        for entry in entries { entry.service.start(gate: gate(for: entry)) }
    }

    /// Stops every entry in reverse list order, each waiting for its run in progress. Once only; also when the list
    /// was never started (a stopped service's later start is a no-op).
    package func stop() {
        guard state.exchange(2, ordering: .acquiringAndReleasing) != 2 else { return }
        for entry in entries.reversed() { entry.service.stop() }
    }

    /// Wakes the entries that run while this node leads `work` (the role was just taken).
    package func wake(leading work: LeaderWork) {
        for entry in entries where entry.leader == work { entry.service.wake() }
    }

    private func gate(for entry: Entry) -> RunGate {
        guard let work = entry.leader, let roles else { return .open }
        return RunGate { roles.leads(work) }
    }
}
