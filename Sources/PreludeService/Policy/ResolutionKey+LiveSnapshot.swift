import PreludeCore

extension ResolutionKey {
    /// The key of `context` for a live revision: the core's derivation with the shape the snapshot holds.
    package init(context: ClientContext, snapshot: LiveSnapshot) {
        self.init(context: context, shape: snapshot.keyShape)
    }
}
