import PreludeStore

extension PolicyStore {
    /// The store the service runs with: created over `policies` and loaded, each app that cannot be served
    /// logged as an error (the service still starts, so the app can be repaired through the admin API).
    package static func start(policies: PolicyRepository, configuration: ServiceConfiguration, logger: Logger) throws
        -> PolicyStore
    {
        let store = PolicyStore(
            policies: policies, resolvedCacheCapacity: configuration.resolvedCacheCapacity,
            cacheControl: PolicyCacheControl(configuration))
        let unavailable = try store.loadAll()
        for (app, problem) in unavailable.sorted(by: { $0.key < $1.key }) {
            logger.error(
                "app not served", ["app": app, "reason": problem.reason, "action": Self.repair],
                numbers: problem.revision.map { ["revision": Double($0)] } ?? [:])
        }
        for app in store.appIDs {
            guard let snapshot = store.snapshot(app: app), !snapshot.storedFindings.isEmpty else { continue }
            logger.warning(
                "revision served with findings: it breaks rules added since it was written",
                [
                    "app": app, "findings": snapshot.storedFindings.map(\.description).joined(separator: "; "),
                    "fallbacks": snapshot.fallbacks.map(\.description).joined(separator: ","),
                    "action": "the next write of this app must meet them (prelude policy lint --database names each)",
                ], numbers: ["revision": Double(snapshot.revision)])
        }
        logger.info(
            "policies loaded", numbers: ["apps": Double(store.appIDs.count), "unavailable": Double(unavailable.count)])
        return store
    }

    /// Why `/readyz` must answer 503 for this store: the apps that exist and cannot be served, named with their
    /// reasons; nil when every app is served.
    package var readinessProblem: String? {
        let unavailable = unavailableApps
        guard !unavailable.isEmpty else { return nil }
        let apps = unavailable.sorted { $0.key < $1.key }.map { "app \"\($0.key)\": \($0.value.reason)" }
        return "\(unavailable.count) \(unavailable.count == 1 ? "app" : "apps") not served ("
            + apps.joined(separator: "; ")
            + "); " + Self.repair
    }

    /// What an operator does about an app this build cannot serve (docs/operations.md, "Upgrading").
    package static let repair =
        "run the previous build, or publish a revision this build accepts (PUT /v1/admin/apps/APP/policy with "
        + "If-Match: *, or prelude policy import); prelude migrate --check lists every stored revision"
}
