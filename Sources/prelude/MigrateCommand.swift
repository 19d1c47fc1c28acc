import ArgumentParser
import PreludeService

struct MigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Apply pending database migrations and exit.",
        discussion: """
            Each migrations/NNNN_name.sql file runs once, in order, in its own transaction with its ledger \
            row. Refuses (exit 1) when an applied file changed or the database has a migration this build \
            does not know. `serve` does the same at start.

            --check changes nothing: it lists the pending migrations and every stored policy revision with what \
            this build does with it (served as written; served with findings, naming any fallback text; or \
            cannot be served, and why). Exit status 0 when this build serves every live revision, 1 when not \
            (docs/operations.md, "Upgrading").
            """
    )

    @OptionGroup var options: DatabaseOptions

    @Flag(
        name: .long, help: "Report what this build will do with the database and every stored revision; change nothing."
    )
    var check = false

    func run() throws {
        let configuration = try options.load()
        if check {
            try ExistingDatabase.require(configuration.database)
            ExistingDatabase.announce(configuration.database)
            let report: UpgradeCheck
            do {
                report = try PreludeService.upgradeCheck(configuration: configuration)
            } catch {
                throw Failure.exit(error, code: Failure.code(for: error))
            }
            print(report.report, terminator: "")
            if !report.servesEveryLiveRevision { throw ExitCode(1) }
            return
        }
        let logger = DatabaseOptions.commandLogger(configuration)
        do {
            let applied = try PreludeService.migrate(configuration: configuration, logger: logger)
            print(applied.isEmpty ? "Database is up to date." : "Applied: \(applied.joined(separator: ", "))")
        } catch {
            throw Failure.exit(error, code: Failure.code(for: error))
        }
    }
}
