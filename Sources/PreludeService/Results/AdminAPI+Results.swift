import PreludeHTTP
import PreludeStore

extension AdminAPI {
    /// `GET /v1/admin/apps/{app}/experiments/{key}/results` (read scope): see ``ResultsRoutes``. The weights come
    /// from the live snapshot of the policy store, the counts from the aggregates.
    func registerResultsRoutes(on router: inout Router) {
        let store = self.store
        let reader = ExperimentResultsReader(database: database) { app, environment in
            store.snapshot(app: app, environment: environment).map { ($0.document, $0.revision) }
        }
        addEnvironmental(&router, .get, ResultsRoutes.suffix, scope: .read, query: ResultsRoutes.parameters) {
            context in
            try ResultsRoutes.respond(to: context.request, reader: reader, pretty: context.pretty)
        }
    }
}
