import PreludeStore

extension Store {
    /// The experiment results over the store's aggregates, taking an experiment's weights from `store`'s live snapshot
    /// when the experiment is live (the results route and the rollout page).
    func experimentResults(live store: PolicyStore) -> ExperimentResultsReader {
        experimentResults { app, environment in
            store.snapshot(app: app, environment: environment).map { ($0.document, $0.revision) }
        }
    }
}
