import ArgumentParser
import PreludeService

#if canImport(FoundationEssentials)
    import Dispatch
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Migrate the database, then serve HTTP until SIGINT or SIGTERM (the default command).",
        discussion: """
            On SIGTERM the server first drains for --drain-seconds (GET /readyz answers 503 while every \
            request is still served), then stops accepting, lets in-flight requests finish within the grace \
            period, closes the database and exits 0. SIGINT (Ctrl-C) skips the drain. GET /healthz and GET /readyz report liveness \
            and readiness.
            """
    )

    @OptionGroup var options: ServeOptions

    func run() throws {
        let configuration = try options.load()
        let logger = Logger(level: configuration.logLevel)
        if !configuration.ignoredServiceLinkVariables.isEmpty {
            // Kubernetes injects these for a Service named `prelude`; they are not settings (ServiceLinkVariables).
            logger.info(
                "ignored Kubernetes service variables",
                ["names": configuration.ignoredServiceLinkVariables.joined(separator: ",")])
        }
        // Before start, so a signal during start-up is not lost to the default action.
        let signals = SignalWaiter()
        let service: PreludeService
        do {
            service = try PreludeService.start(configuration: configuration, logger: logger)
        } catch {
            logger.error("start-up failed", ["error": "\(error)"])
            throw Failure.exit(error, code: Failure.code(for: error))
        }
        // Start-up's pages (migrations, the seed, argument parsing) are not needed to serve (docs/operations.md).
        service.releaseStartupMemory()
        let number = signals.wait()
        logger.info(
            "signal received", ["signal": number == SIGINT ? "SIGINT" : number == SIGTERM ? "SIGTERM" : "\(number)"])
        // SIGTERM comes from an orchestrator (Kubernetes, podman stop): drain first. SIGINT is Ctrl-C: stop now.
        service.stop(drain: number == SIGTERM)
    }
}
