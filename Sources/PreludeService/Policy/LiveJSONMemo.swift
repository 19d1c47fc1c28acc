import PreludeCore
import Synchronization

/// The canonical JSON of the live revisions the admin API diffed against most recently, so that a run of dry runs
/// and writes against one app builds the live policy's JSON once per revision instead of once per request
/// (BENCHMARKS.md, "Admin writes"). A few entries, whatever the number of apps: an app nobody edits costs nothing.
///
/// An entry holds its ``ServedPolicy``, so it is found by identity (`===`) and never confused with a later revision
/// whose object reuses the address.
package final class LiveJSONMemo: Sendable {
    private struct Entry: Sendable {
        let snapshot: ServedPolicy
        let json: JSONValue
    }

    private let entries = Mutex<[Entry]>([])
    /// The most revisions remembered.
    package let capacity: Int

    /// An empty memo of at most `capacity` revisions.
    package init(capacity: Int = 4) {
        precondition(capacity > 0, "a memo needs room for one revision")
        self.capacity = capacity
    }

    /// `snapshot.document.jsonValue`, built on the first request for this revision.
    package func json(of snapshot: ServedPolicy) -> JSONValue {
        if let found = entries.withLock({ entries in entries.first { $0.snapshot === snapshot }?.json }) {
            return found
        }
        // Built outside the lock; two first requests racing both build it, and the memo keeps one.
        let json = snapshot.document.jsonValue
        entries.withLock { entries in
            guard !entries.contains(where: { $0.snapshot === snapshot }) else { return }
            if entries.count >= capacity { entries.removeFirst() }
            entries.append(Entry(snapshot: snapshot, json: json))
        }
        return json
    }

    /// How many revisions are remembered (for tests).
    package var count: Int { entries.withLock { $0.count } }
}
