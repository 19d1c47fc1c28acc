/// The scheduled-publish state machine (docs/change-management.md, "Scheduled publish"): given what is scheduled and
/// the time, which requests are due now and when to look again. Pure: the caller passes `now`, and the durable
/// record of a request (state `approved` with an instant) is the schedule, so a restart neither loses nor repeats
/// one — an applied request is no longer `approved`, and a due one is still `approved` after a crash.
package struct PublishScheduler: Sendable, Equatable {
    /// Whether this process may publish: a read replica never applies anything.
    package enum Role: Sendable, Equatable {
        /// The primary: applies what is due.
        case primary
        /// A read replica: applies nothing.
        case replica
    }

    /// One scheduled request as stored.
    package struct Entry: Sendable, Equatable {
        /// The request's id.
        package var id: Int64
        /// Its state; only `approved` requests are applied.
        package var state: ChangeRequestState
        /// When it is due (ms since the epoch).
        package var scheduledAt: Int64

        /// An entry.
        package init(id: Int64, state: ChangeRequestState, scheduledAt: Int64) {
            self.id = id
            self.state = state
            self.scheduledAt = scheduledAt
        }
    }

    /// What to do at one instant.
    package struct Plan: Sendable, Equatable {
        /// The requests to apply now, earliest instant first (then by id).
        package var due: [Int64]
        /// When the next one not yet due becomes due (ms), nil when none is.
        package var nextWake: Int64?

        /// A plan.
        package init(due: [Int64], nextWake: Int64?) {
            self.due = due
            self.nextWake = nextWake
        }
    }

    /// This process's role.
    package var role: Role

    /// A scheduler for `role`.
    package init(role: Role) { self.role = role }

    /// What is due at `now` among `entries`: approved requests whose instant is at or before `now`.
    package func plan(_ entries: [Entry], now: Int64) -> Plan {
        guard role == .primary else { return Plan(due: [], nextWake: nil) }
        let approved = entries.filter { $0.state == .approved }
        let due = approved.filter { $0.scheduledAt <= now }.sorted {
            ($0.scheduledAt, $0.id) < ($1.scheduledAt, $1.id)
        }
        let next = approved.filter { $0.scheduledAt > now }.map(\.scheduledAt).min()
        return Plan(due: due.map(\.id), nextWake: next)
    }
}
