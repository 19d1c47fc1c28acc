import ArgumentParser
import PreludeCore
import PreludeService
import PreludeStore

/// `prelude experiments list APP`: the experiments whose results `prelude results` can print.
struct ExperimentsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "experiments",
        abstract: "List an app's experiments.",
        subcommands: [ExperimentsListCommand.self]
    )
}

/// `prelude experiments list APP`.
struct ExperimentsListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the experiments of an app: configured by any revision or reported by an event.",
        discussion: """
            One line per experiment: its key, whether the live policy configures it (live) or only an earlier \
            revision or events do (ended), and the installs exposed so far. Reads the database; no server needed. \
            Exit status 0, or 1 when the app is unknown.
            """
    )

    @Argument(help: "The app id.")
    var app: String

    @OptionGroup var options: DatabaseOptions

    func run() throws {
        try options.withExistingStore { _, store in
            let experiments = try store.experimentResults().experiments(appID: app)
            if experiments.isEmpty { print("App \"\(app)\" has no experiments.") }
            for experiment in experiments {
                print(
                    "\(experiment.key)\t\(experiment.isLive ? "live" : "ended")\t"
                        + CountedNoun.text(experiment.exposed, "install") + " exposed")
            }
        }
    }
}
