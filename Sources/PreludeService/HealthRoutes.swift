import PreludeCore
import PreludeHTTP
import PreludeStorage

#if canImport(FoundationEssentials)
    import Dispatch
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

/// `GET /healthz` (the process answers) and `GET /readyz` (the database is open and fully migrated, its writes
/// are not failing on storage, every app's live revision is served, and the service is not draining), both
/// answering JSON.
///
/// Both answers carry `Cache-Control: no-store` (RFC 9111 §5.2.2.5): a health answer describes this instant, and a
/// cache that assigned it a freshness lifetime of its own would report a dead or full service as healthy.
package enum HealthRoutes {
    /// Registers both routes; `storage`, when given, makes `/readyz` 503 while writes fail on storage (and probes
    /// whether they work again, see ``StorageHealth/probeIfDue()``).
    package static func register(
        on router: inout Router, database: Database, migrator: Migrator, storage: StorageHealth? = nil,
        replica: (@Sendable () -> String?)? = nil, policies: (@Sendable () -> String?)? = nil,
        leader: (@Sendable () -> [LeaderWork])? = nil, isDraining: @escaping @Sendable () -> Bool
    ) {
        let alive = json(["status": "ok", "service": ServiceInfo.name, "version": ServiceInfo.version])
        router.add(.get, "/healthz") { _ in uncached(.json(alive)) }
        router.add(.get, "/readyz") { _ in
            uncached(
                readiness(
                    database: database, migrator: migrator, storage: storage, replica: replica, policies: policies,
                    leader: leader, isDraining: isDraining))
        }
    }

    private static func uncached(_ response: HTTPResponse) -> HTTPResponse {
        var response = response
        response.headers.set("Cache-Control", "no-store")
        return response
    }

    private static func readiness(
        database: Database, migrator: Migrator, storage: StorageHealth?, replica: (@Sendable () -> String?)?,
        policies: (@Sendable () -> String?)?, leader: (@Sendable () -> [LeaderWork])?, isDraining: @Sendable () -> Bool
    ) -> HTTPResponse {
        if isDraining() {
            return .json(json(["status": "unavailable", "reason": "shutting down"]), status: .serviceUnavailable)
        }
        guard database.isOpen else {
            return .json(json(["status": "unavailable", "reason": "database closed"]), status: .serviceUnavailable)
        }
        do {
            let pending = try migrator.pendingMigrations(database)
            guard pending.isEmpty else {
                return .json(
                    json(["status": "unavailable", "reason": "\(pending.count) migrations pending"]),
                    status: .serviceUnavailable)
            }
        } catch {
            return .json(
                json(["status": "unavailable", "reason": "database check failed"]), status: .serviceUnavailable)
        }
        if let fault = storage?.probeIfDue() {
            return .json(
                json(["status": "unavailable", "reason": "database writes failing: \(fault.description)"]),
                status: .serviceUnavailable)
        }
        // A read replica that holds no copy of the primary's policies yet (docs/scaling.md, "Readiness").
        if let reason = replica?() {
            return .json(json(["status": "unavailable", "reason": reason]), status: .serviceUnavailable)
        }
        // An app whose live revision this build cannot serve (corrupt, or written by a newer build): a rolling
        // update must not route clients here (docs/operations.md, "Upgrading").
        if let reason = policies?() {
            return .json(json(["status": "unavailable", "reason": reason]), status: .serviceUnavailable)
        }
        var ready = ["status": "ready", "migrations": "\(migrator.schemaVersion)"]
        // The work this node leads, comma-separated ("" for none): a node that leads nothing is as ready as one that
        // leads everything, but an operator sees where the scheduler and the guard run (docs/scaling.md).
        if let leader { ready["leader"] = leader().map(\.rawValue).joined(separator: ",") }
        return .json(json(ready))
    }

    private static func json(_ object: [String: String]) -> [UInt8] {
        let body = object.sorted { $0.key < $1.key }.map { "\(JSONValue.quoted($0.key)):\(JSONValue.quoted($0.value))" }
        return Array(("{" + body.joined(separator: ",") + "}").utf8)
    }
}
