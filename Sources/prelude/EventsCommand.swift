import ArgumentParser
import PreludeCore
import PreludeService
import PreludeStore

struct EventsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Maintain the raw event store.",
        subcommands: [Prune.self]
    )

    struct Prune: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete raw events older than the retention now, and exit.",
            discussion: """
                The server does the same every hour. Age is the time the server received the event; the \
                experiment aggregates are kept, so results do not change. The retention is the \
                eventRetentionDays setting (PRELUDE_EVENT_RETENTION_DAYS, --event-retention-days; 0 keeps \
                everything). Safe while a server runs: each batch is a short transaction of its own.
                """
        )

        @Option(setting: .eventRetentionDays) var eventRetentionDays: String?

        @OptionGroup var options: DatabaseOptions

        func run() throws {
            let configuration = try options.load(adding: SettingOptions.given(in: self))
            do {
                let database = try OfflineDatabase.open(configuration)
                ExistingDatabase.announce(configuration.database)
                defer { database.close() }
                guard configuration.eventRetentionDays > 0 else {
                    print("Retention is 0 (keep forever): nothing pruned.")
                    return
                }
                let deleted = try EventPruner(retentionDays: configuration.eventRetentionDays)
                    .prune(database, now: ServiceClock.system.milliseconds)
                print(
                    "Pruned \(CountedNoun.text(deleted, "event")) received more than \(configuration.eventRetentionDays) days ago."
                )
            } catch {
                throw Failure.exit(error)
            }
        }
    }
}
