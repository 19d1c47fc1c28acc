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
            """
    )

    @OptionGroup var options: DatabaseOptions

    func run() throws {
        let configuration = try options.load()
        let logger = DatabaseOptions.commandLogger(configuration)
        do {
            let applied = try PreludeService.migrate(configuration: configuration, logger: logger)
            print(applied.isEmpty ? "Database is up to date." : "Applied: \(applied.joined(separator: ", "))")
        } catch {
            throw Failure.exit(error, code: Failure.code(for: error))
        }
    }
}
