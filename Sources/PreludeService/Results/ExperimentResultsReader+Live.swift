import PreludeStorage
import PreludeStore

extension ExperimentResultsReader {
    /// A reader of `database`'s aggregates that takes an experiment's weights from `store`'s live snapshot when the
    /// experiment is live (the results route and the rollout page).
    init(database: Database, live store: PolicyStore) {
        self.init(database: database) { app, environment in
            store.snapshot(app: app, environment: environment).map { ($0.document, $0.revision) }
        }
    }
}
