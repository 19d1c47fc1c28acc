import PreludeStorage

extension PolicyStore {
    /// The store the service runs with: created over `database` and loaded, each app that cannot be served
    /// logged as an error (the service still starts, so the app can be repaired through the admin API).
    package static func start(database: Database, configuration: ServiceConfiguration, logger: Logger) throws
        -> PolicyStore
    {
        let store = PolicyStore(
            database: database, resolvedCacheCapacity: configuration.resolvedCacheCapacity,
            cacheControl: PolicyCacheControl(configuration))
        let unavailable = try store.loadAll()
        for (app, problem) in unavailable.sorted(by: { $0.key < $1.key }) {
            logger.error(
                "app not served", ["app": app, "reason": problem.reason],
                numbers: problem.revision.map { ["revision": Double($0)] } ?? [:])
        }
        logger.info(
            "policies loaded", numbers: ["apps": Double(store.appIDs.count), "unavailable": Double(unavailable.count)])
        return store
    }
}
