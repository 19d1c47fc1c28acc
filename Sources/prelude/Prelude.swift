import ArgumentParser
import PreludeService

#if canImport(FoundationEssentials)
    import Dispatch
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

@main
struct Prelude: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prelude",
        abstract: "Serves remote permission-priming policy to mobile apps.",
        discussion: """
            With no subcommand, `prelude` serves: it creates and migrates ./prelude.sqlite on first start, \
            loads the demo app from config/demo-policy.json, and listens on 127.0.0.1:8080.

            Settings come from config/prelude.json, then PRELUDE_* environment variables, then flags \
            (later wins). See docs/configuration.md.
            """,
        version: ServiceInfo.version,
        subcommands: [
            ServeCommand.self,
            MigrateCommand.self,
            CopyCommand.self,
            PolicyCommand.self,
            HealthcheckCommand.self,
            TokenCommand.self,
            ChangesCommand.self,
            ResultsCommand.self,
            ExperimentsCommand.self,
            EventsCommand.self,
            BackupCommand.self,
        ],
        defaultSubcommand: ServeCommand.self
    )

    /// Refuses a mistyped subcommand with a suggestion (exit 64, EX_USAGE), then parses and runs as usual.
    static func main() {
        if let problem = CommandSuggestion.problem(in: Array(CommandLine.arguments.dropFirst()), root: Prelude.self) {
            StandardIO.error("prelude: error: \(problem)\n")
            StandardIO.exit(64)
        }
        main(nil)
    }
}
