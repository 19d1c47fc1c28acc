import Foundation

/// The ``PermissionFlow``s over one client, held weakly, in the order they were created: the client re-reads them
/// on every activation (``PreludeClient/appBecameActive()``) without the app listing them.
final class FlowRegistry: @unchecked Sendable {
    // @unchecked Sendable: `entries` is read and written only while holding `lock`.
    private let lock = NSLock()
    private var entries: [Entry] = []

    private struct Entry {
        weak var flow: PermissionFlow?
    }

    /// Adds `flow` (and forgets released ones).
    func add(_ flow: PermissionFlow) {
        lock.withLock {
            entries.removeAll { $0.flow == nil }
            entries.append(Entry(flow: flow))
        }
    }

    /// The flows still alive, in creation order.
    var flows: [PermissionFlow] { lock.withLock { entries.compactMap(\.flow) } }
}
