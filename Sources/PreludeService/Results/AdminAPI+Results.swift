import PreludeHTTP
import PreludeStore

extension AdminAPI {
    /// `GET /v1/admin/apps/{app}/experiments/{key}/results` (read scope): see ``ResultsRoutes``. The weights come
    /// from the live snapshot of the policy store, the counts from the aggregates.
    func registerResultsRoutes(on group: inout AdminRouteGroup) {
        let reader = resultsReader
        group.addEnvironmental(.get, ResultsRoutes.suffix, scope: .read, query: ResultsRoutes.parameters) {
            context in
            try ResultsRoutes.respond(to: context.request, reader: reader, pretty: context.pretty)
        }
    }

    /// Results from the aggregates, with the weights of the live snapshot when the experiment is live.
    var resultsReader: ExperimentResultsReader {
        let store = self.store
        return ExperimentResultsReader(database: database) { app, environment in
            store.snapshot(app: app, environment: environment).map { ($0.document, $0.revision) }
        }
    }
}
