import ArgumentParser
import PreludeCore
import PreludeService
import PreludeStorage
import PreludeStore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct CopyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy",
        abstract: "Copy every row of one database into a new one: SQLite to PostgreSQL, or back.",
        discussion: """
            Moves a deployment between engines without losing history, events or ETags (clients keep their \
            caches): apps, environments, every revision, audit, tokens, change requests, webhooks and their \
            deliveries, rollouts, events and experiment aggregates. The source is read in one snapshot and never \
            changed; it must be migrated by this build. The target is created and migrated when new and must hold \
            no rows; it is written in one transaction, so a failed copy leaves it empty. Afterwards row counts and \
            every revision's bytes and ETag are compared. Stop writers first (docs/storage.md, "Moving a database"). \
            Exit status: 0 copied and checked, 1 refused or failed, 78 bad settings.
            """
    )

    @Option(help: ArgumentHelp("The database to copy: a SQLite file or a postgres:// URL.", valueName: "database"))
    var from: String

    @Option(help: ArgumentHelp("The new database: a SQLite file or a postgres:// URL.", valueName: "database"))
    var to: String

    @Option(setting: .migrationsDirectory) var migrationsDirectory: String?

    func run() throws {
        let flags = SettingOptions.given(in: self)
        let configuration: ServiceConfiguration
        do {
            configuration = try ServiceConfiguration.load(
                configFile: nil, environment: ProcessInfo.processInfo.environment, flags: flags)
        } catch {
            throw Failure.exit(error, code: 78)
        }
        let logger = DatabaseOptions.commandLogger(configuration)
        let report: DatabaseCopy.Report
        do {
            report = try PreludeService.copyDatabase(
                from: from, to: to, configuration: configuration, logger: logger)
        } catch {
            throw Failure.exit(error)
        }
        for (table, rows) in report.rows.sorted(by: { $0.key < $1.key }) {
            print("\(table)\t\(rows)")
        }
        let total = report.rows.values.reduce(0, +)
        print(
            "Copied \(CountedNoun.text(total, "row")) from \(DatabaseLocation(from)) to \(DatabaseLocation(to)); "
                + "\(CountedNoun.text(report.revisionsVerified, "revision")) verified byte for byte.")
    }
}
