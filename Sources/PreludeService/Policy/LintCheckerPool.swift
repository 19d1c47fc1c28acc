import PreludeCore
import Synchronization

/// Compiled lint word lists kept across admin writes (BENCHMARKS.md, "Admin writes"): each lint run takes a set
/// (``PreludeCore/LintCheckers``) from the pool, or a new one when every set is in use, extends it with the locales
/// it needs, and puts it back.
///
/// `@unchecked Sendable` because a ``PreludeCore/LintCheckers`` holds `Regex` values, which are not `Sendable`.
/// The invariant that makes it safe: a set is either in `idle` (reached only under the mutex) or owned by exactly one
/// running ``lint(_:)``, which took it out under the mutex and puts it back under the mutex when done; no two runs
/// ever hold the same set, and the mutex orders one run's writes before the next run's reads.
package final class LintCheckerPool: @unchecked Sendable {
    private let idle = Mutex<[LintCheckers]>([])
    /// The most sets kept idle; more concurrent lint runs build their own and drop them.
    package let capacity: Int

    /// An empty pool keeping at most `capacity` sets.
    package init(capacity: Int = 4) {
        precondition(capacity >= 0, "a negative capacity")
        self.capacity = capacity
    }

    /// ``PreludeCore/CopyLinter/lint(_:)`` of `document`, with compiled lists from earlier runs.
    package func lint(_ document: PolicyDocument) -> [LintFinding] {
        var checkers = take()
        let findings = CopyLinter.lint(document, reusing: &checkers)
        give(checkers)
        return findings
    }

    /// How many sets are idle (for tests).
    package var idleCount: Int { idle.withLock { $0.count } }

    private func take() -> LintCheckers {
        let taken: Transfer? = idle.withLock { sets in sets.popLast().map(Transfer.init) }
        return taken?.checkers ?? LintCheckers()
    }

    private func give(_ checkers: LintCheckers) {
        let transfer = Transfer(checkers)
        idle.withLock { sets in
            if sets.count < capacity { sets.append(transfer.checkers) }
        }
    }

    /// Carries a set across the mutex boundary; see the type's invariant.
    private struct Transfer: @unchecked Sendable {
        let checkers: LintCheckers
        init(_ checkers: LintCheckers) { self.checkers = checkers }
    }
}
