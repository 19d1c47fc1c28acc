import ArgumentParser
import Foundation
import PreludeService

struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Migrate the database, then serve HTTP until SIGINT or SIGTERM (the default command).",
        discussion: """
            On SIGINT or SIGTERM the server stops accepting, lets in-flight requests finish within the \
            grace period, closes the database and exits 0. GET /healthz and GET /readyz report liveness \
            and readiness.
            """
    )

    @OptionGroup var options: ConfigurationOptions

    func run() throws {
        let configuration = try options.load()
        let logger = Logger(level: configuration.logLevel)
        // Before start, so a signal during start-up is not lost to the default action.
        let signals = SignalWaiter()
        let service: PreludeService
        do {
            service = try PreludeService.start(configuration: configuration, logger: logger)
        } catch {
            logger.error("start-up failed", ["error": "\(error)"])
            throw Failure.exit(error, code: Failure.code(for: error))
        }
        let number = signals.wait()
        logger.info(
            "signal received", ["signal": number == SIGINT ? "SIGINT" : number == SIGTERM ? "SIGTERM" : "\(number)"])
        service.stop()
    }
}
