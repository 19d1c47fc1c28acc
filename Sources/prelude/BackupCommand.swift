import ArgumentParser
import PreludeCore
import PreludeService
import PreludeStorage
import PreludeStore

#if canImport(FoundationEssentials)
    import Dispatch
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

/// `prelude backup --output FILE`: a consistent copy of the database, taken while a server runs.
struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Write a consistent copy of the database to a new file, while the server keeps running.",
        discussion: """
            Uses SQLite's VACUUM INTO: the copy is one committed snapshot (a transaction in progress is either \
            wholly in it or not at all), compacted, and self-contained (no -wal file). It reads in a read \
            transaction, so a running server keeps serving and writing meanwhile. The output must not exist yet. \
            The copy is checked (PRAGMA quick_check) before the command reports success. To restore, stop the \
            server and put the copy in place of the database file (docs/operations.md, "Backup and restore"). \
            Exit status: 0 written, 1 failed (nothing is left at --output), 78 bad settings.
            """
    )

    @Option(help: ArgumentHelp("The file to write; must not exist.", valueName: "path"))
    var output: String

    @OptionGroup var options: DatabaseOptions

    func run() throws {
        let configuration = try options.load()
        if DatabaseLocation.isPostgres(configuration.database) {
            // PostgreSQL's own tools copy it consistently and restore it to a point in time; Prelude does not.
            throw Failure.exit(BackupFailure(description: Self.postgresAdvice))
        }
        let target = ExistingDatabase.absolute(output)
        guard !FileManager.default.fileExists(atPath: target) else {
            throw Failure.exit(BackupFailure(description: "\(target) exists; choose a new file name"))
        }
        // Said before SQLite is asked, which would only say "unable to open database file" (SQLITE_CANTOPEN).
        let directory = FilePath.directory(of: target).isEmpty ? "/" : FilePath.directory(of: target)
        guard FilePath.isDirectory(directory) == true else {
            throw Failure.exit(
                BackupFailure(
                    description: "cannot write \(target): the directory \(directory) does not exist; create it or "
                        + "choose another --output"))
        }
        guard access(directory, W_OK | X_OK) == 0 else {
            throw Failure.exit(
                BackupFailure(
                    description: "cannot write \(target): the directory \(directory) is not writable "
                        + "(\(String(cString: strerror(errno)))); choose another --output"))
        }
        do {
            let database = try OfflineDatabase.open(configuration)
            defer { database.close() }
            ExistingDatabase.announce(configuration.database)
            try DatabaseBackup.copy(database, to: target)
        } catch {
            try? FileManager.default.removeItem(atPath: target)
            throw Failure.exit(error)
        }
        do {
            let apps = try Self.check(copy: target)
            // The size of the closed copy, read with stat(2) (Foundation's attribute dictionary is typed
            // differently per platform, and a failed cast printed 0).
            var info = stat()
            guard stat(target, &info) == 0 else {
                throw BackupFailure(
                    description: "cannot read the size of \(target): \(String(cString: strerror(errno)))")
            }
            let size = Int(info.st_size)
            print(
                "Backed up \(ExistingDatabase.absolute(configuration.database)) to \(target) (\(size) bytes, \(CountedNoun.text(apps, "app")))."
            )
        } catch {
            try? FileManager.default.removeItem(atPath: target)
            throw Failure.exit(error)
        }
    }
}

extension BackupCommand {
    /// What `prelude backup` says against PostgreSQL (docs/storage.md, "Backups").
    static let postgresAdvice = """
        the database is PostgreSQL: back it up with PostgreSQL's own tools, not prelude backup — \
        `pg_dump --format=custom` for a logical copy (restore with pg_restore into an empty database), \
        `pg_basebackup` with WAL archiving for point-in-time recovery, or your operator's or cloud's backups \
        (CloudNativePG, RDS, Cloud SQL); docs/storage.md, "Backups"
        """

    /// Checks the copy (PRAGMA quick_check) and returns how many apps it holds; closes it before returning.
    static func check(copy target: String) throws -> Int {
        let copy = try Database(path: target, readerCount: 1)
        defer { copy.close() }
        let check = try DatabaseBackup.quickCheck(copy)
        guard check == "ok" else {
            throw BackupFailure(description: "the copy fails PRAGMA quick_check: \(check ?? "")")
        }
        return try Store(database: copy).policies.appCount()
    }
}

/// Why a backup was not written.
struct BackupFailure: Error, CustomStringConvertible {
    /// A sentence naming the file.
    let description: String
}
