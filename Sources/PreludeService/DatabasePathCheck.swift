#if canImport(FoundationEssentials)
    import Dispatch
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

/// Checks, before SQLite is asked, that the database file can be created or written, so the error
/// names the setting instead of SQLite's "unable to open database file".
package enum DatabasePathCheck {
    /// Throws a `ConfigurationError` naming the `database` setting when the path is unusable.
    package static func check(_ path: String) throws(ConfigurationError) {
        let setting = "database (PRELUDE_DATABASE / --database)"
        if let isDirectory = FilePath.isDirectory(path) {
            guard !isDirectory else {
                throw ConfigurationError(setting: setting, problem: "\(path) is a directory, not a database file")
            }
            guard access(path, R_OK | W_OK) == 0 else {
                throw ConfigurationError(
                    setting: setting,
                    problem: "\(path) is not readable and writable: \(String(cString: strerror(errno)))")
            }
        }
        // WAL needs to create the -wal and -shm files beside the database, so the directory must be writable too.
        let directory = FilePath.directory(of: path).isEmpty ? "." : FilePath.directory(of: path)
        guard FilePath.isDirectory(directory) == true else {
            throw ConfigurationError(setting: setting, problem: "directory \(directory) of \(path) does not exist")
        }
        guard access(directory, W_OK | X_OK) == 0 else {
            throw ConfigurationError(
                setting: setting,
                problem: "directory \(directory) of \(path) is not writable: \(String(cString: strerror(errno)))")
        }
    }
}
