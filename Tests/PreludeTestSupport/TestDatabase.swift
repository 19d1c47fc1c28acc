import Foundation

/// The database engine the suite runs on: SQLite files by default, or a throwaway PostgreSQL cluster when
/// `PRELUDE_TEST_POSTGRES` names one (`.ci/run` starts it with scripts/postgres/throwaway.sh). One suite serves
/// both engines: fixtures ask here for their database instead of naming a file.
public enum TestDatabase {
    /// The cluster's URL (its `prelude` database), or nil when the suite runs on SQLite.
    public static let postgresURL: String? = {
        let value = ProcessInfo.processInfo.environment["PRELUDE_TEST_POSTGRES"] ?? ""
        return value.isEmpty ? nil : value
    }()

    /// True when the suite runs on PostgreSQL.
    public static var isPostgres: Bool { postgresURL != nil }

    /// The database for a test whose SQLite file would be `path`: that path on SQLite; on PostgreSQL, the URL of
    /// a new empty database in the throwaway cluster (one per call, so tests never share state).
    public static func location(file path: String) -> String {
        guard let postgresURL else { return path }
        let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        run(["psql", postgresURL, "-v", "ON_ERROR_STOP=1", "-qc", "CREATE DATABASE \(name)"])
        // Replace the database name, the URL's last path component.
        guard let slash = postgresURL.lastIndex(of: "/") else { return postgresURL }
        let query = postgresURL[slash...].firstIndex(of: "?").map { String(postgresURL[$0...]) } ?? ""
        return String(postgresURL[..<slash]) + "/" + name + query
    }

    private static func run(_ arguments: [String]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        do {
            try process.run()
            process.waitUntilExit()
        } catch {
            fatalError("cannot run \(arguments[0]): \(error)")
        }
        precondition(process.terminationStatus == 0, "\(arguments.joined(separator: " ")) failed")
    }
}
