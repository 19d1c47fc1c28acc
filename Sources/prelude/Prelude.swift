import ArgumentParser
import PreludeService

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
            PolicyCommand.self,
            HealthcheckCommand.self,
            TokenCommand.self,
        ],
        defaultSubcommand: ServeCommand.self
    )
}
