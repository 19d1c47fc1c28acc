import PreludeCore

/// How a proposed document's screens differ from the live document's, screen by screen (same feature, locale,
/// variant and action): what a reviewer of a policy change looks at first.
package struct PreviewComparison: Sendable {
    /// How one proposed screen compares with the live one.
    package enum Change: String, Sendable {
        /// The live document shows the same words, style and rule ids.
        case unchanged
        /// The live document shows this screen differently.
        case changed
        /// The live document has no such screen.
        case added
    }

    /// The live screens by id.
    package let live: [String: PreviewScreen]
    /// The change of each proposed screen, by id.
    package let changes: [String: Change]
    /// Live screens the proposed document no longer has, in live order.
    package let removed: [PreviewScreen]

    /// Compares `proposed` with `live`.
    package init(proposed: [PreviewScreen], live: [PreviewScreen]) {
        var byID: [String: PreviewScreen] = [:]
        for screen in live { byID[screen.id] = screen }
        self.live = byID
        var changes: [String: Change] = [:]
        for screen in proposed {
            if let old = byID[screen.id] {
                changes[screen.id] = old.looksLike(screen) ? .unchanged : .changed
            } else {
                changes[screen.id] = .added
            }
        }
        self.changes = changes
        let proposedIDs = Set(proposed.map(\.id))
        removed = live.filter { !proposedIDs.contains($0.id) }
    }

    /// The change of the proposed screen `id`.
    package func change(of id: String) -> Change { changes[id] ?? .added }

    /// How many proposed screens have `change`.
    package func count(_ change: Change) -> Int { changes.values.filter { $0 == change }.count }
}
