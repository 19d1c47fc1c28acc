import PreludeStorage

#if canImport(FoundationEssentials)
    import Dispatch
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

/// Opens the service's existing database for a one-shot command (`prelude results`, `prelude events prune`),
/// without creating or migrating it: a typo in `--database` must not leave an empty file behind.
package enum OfflineDatabase {
    /// Why the database cannot be used.
    package struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// A sentence naming the path and what to do.
        package let description: String
    }

    /// Opens the database at `path` with one reader; fails when the file does not exist or lacks the experiment
    /// aggregates (migration 0002).
    package static func open(path: String) throws -> Database {
        let location = DatabaseLocation(path)
        if case .file = location, !FileManager.default.fileExists(atPath: path) {
            throw Failure(description: "no database at \(path) (set --database or PRELUDE_DATABASE)")
        }
        let database = try Database(location: location, readerCount: 1)
        let path = location.description
        do {
            let migrated = try database.read { try $0.tableExists("experiment_funnel_counts") }
            guard migrated else {
                throw Failure(description: "the database at \(path) is not migrated; run `prelude migrate` first")
            }
            return database
        } catch {
            database.close()
            throw error
        }
    }
}
