import Foundation
import PreludeHTTP
import PreludeStorage

/// `GET /healthz` (the process answers) and `GET /readyz` (the database is open and fully migrated,
/// and the service is not draining), both answering JSON.
package enum HealthRoutes {
    /// Registers both routes.
    package static func register(
        on router: inout Router, database: Database, migrator: Migrator, isDraining: @escaping @Sendable () -> Bool
    ) {
        let alive = json(["status": "ok", "service": ServiceInfo.name, "version": ServiceInfo.version])
        router.add(.get, "/healthz") { _ in .json(alive) }
        router.add(.get, "/readyz") { _ in
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
            return .json(json(["status": "ready", "migrations": "\(migrator.migrations.count)"]))
        }
    }

    private static func json(_ object: [String: String]) -> [UInt8] {
        let body = object.sorted { $0.key < $1.key }.map { "\(Logger.quote($0.key)):\(Logger.quote($0.value))" }
        return Array(("{" + body.joined(separator: ",") + "}").utf8)
    }
}
