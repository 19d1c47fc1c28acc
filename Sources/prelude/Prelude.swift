import ArgumentParser
import PreludeService

@main
struct Prelude: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prelude",
        abstract: "Serves remote permission-priming policy to mobile apps.",
        version: ServiceInfo.version,
        subcommands: [PolicyCommand.self]
    )
}
