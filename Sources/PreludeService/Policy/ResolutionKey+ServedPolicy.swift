import PreludeCore

extension ResolutionKey {
    /// The key of `context` for a live revision: the core's derivation with the shape the snapshot holds, the
    /// explicit locale looked up in the snapshot's memory of such values.
    package init(context: ClientContext, snapshot: ServedPolicy) {
        self.init(
            context: context, shape: snapshot.keyShape,
            explicitLocale: context.locale.flatMap(snapshot.explicitLocales.explicitLocale))
    }
}
