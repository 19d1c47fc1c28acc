import PreludeCore
import Synchronization

/// One snapshot's memory of explicit `locale` values: whether each parses and which available locale it resolves
/// to (``ResolutionKeyShape/explicitLocale(_:)``), so a policy fetch neither parses the tag again nor walks its
/// fallback chain for a value seen before. Clients send few distinct values; the values are the client's, so the
/// memory is bounded (cleared when full) and owned by the snapshot (a new revision starts empty).
package final class ExplicitLocaleMemo: Sendable {
    /// The document's shape the values are resolved against.
    private let shape: ResolutionKeyShape
    /// The most values remembered; reaching it starts over.
    package let capacity: Int
    private let entries = Mutex<[String: ResolutionKey.ExplicitLocale?]>([:])

    /// An empty memory for the document `shape` describes.
    package init(shape: ResolutionKeyShape, capacity: Int = 1024) {
        precondition(capacity >= 1, "a memo holds at least one value")
        self.shape = shape
        self.capacity = capacity
    }

    /// What `value` means for the document, or nil when it does not parse as a locale tag.
    package func explicitLocale(_ value: String) -> ResolutionKey.ExplicitLocale? {
        if let known = entries.withLock({ $0[value] }) { return known }
        let outcome = shape.explicitLocale(value)
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[value] = outcome
        }
        return outcome
    }

    /// The number of values remembered.
    package var count: Int { entries.withLock { $0.count } }
}
