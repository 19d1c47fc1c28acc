import PreludeStorage
import PreludeStore

extension OfflineDatabase {
    /// Opens `configuration.database` (``open(path:)``).
    package static func open(_ configuration: ServiceConfiguration) throws -> Database {
        try open(path: configuration.database)
    }
}
