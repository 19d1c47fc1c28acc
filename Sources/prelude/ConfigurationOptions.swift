import ArgumentParser
import PreludeService
import PreludeStorage
import PreludeStore

#if canImport(FoundationEssentials)
    import Dispatch
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

/// The flags of every command that opens the database: where it is, how to migrate it, how much to log. Values stay
/// strings so that `ServiceConfiguration` checks them and its errors name the setting the same way for every source.
/// Settings without a flag here still come from the file and `PRELUDE_*` variables (docs/configuration.md).
struct DatabaseOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Configuration file (JSON).", valueName: "path"))
    var config: String?

    @Option(help: ArgumentHelp("SQLite database file. [default: prelude.sqlite]", valueName: "path"))
    var database: String?

    @Option(help: ArgumentHelp("debug, info, notice, warning or error. [default: info]", valueName: "level"))
    var logLevel: String?

    @Option(help: ArgumentHelp("Directory of NNNN_name.sql migrations. [default: migrations]", valueName: "path"))
    var migrationsDir: String?

    /// The flags given, by setting.
    var flags: [ConfigurationSetting: String] {
        var flags: [ConfigurationSetting: String] = [:]
        flags[.database] = database
        flags[.logLevel] = logLevel
        flags[.migrationsDirectory] = migrationsDir
        return flags
    }

    /// Merges file, environment and `flags` (these and a command's own), or prints the problem and exits with
    /// EX_CONFIG (78).
    func load(adding more: [ConfigurationSetting: String] = [:]) throws -> ServiceConfiguration {
        do {
            return try ServiceConfiguration.load(
                configFile: config, environment: ProcessInfo.processInfo.environment,
                flags: flags.merging(more) { $1 })
        } catch {
            throw Failure.exit(error, code: 78)
        }
    }

    /// The logger of a command other than `serve`: warnings and errors only unless --log-level (or the setting)
    /// asks for less, so informational JSON lines never interleave with the command's own output.
    static func commandLogger(_ configuration: ServiceConfiguration) -> Logger {
        Logger(level: max(configuration.logLevel, .warning))
    }

    /// Loads the configuration and opens its *existing* database, migrated as `serve` does, and names it on
    /// standard error. A missing file is refused (exit 1) rather than created: a typo in --database or a command
    /// run in the wrong directory must not report success on a new, empty database. The caller closes it.
    func openMigratedDatabase() throws -> (configuration: ServiceConfiguration, database: Database) {
        let configuration = try load()
        do {
            try ExistingDatabase.require(configuration.database)
            let logger = Self.commandLogger(configuration)
            let database = try PreludeService.openAndMigrate(configuration: configuration, logger: logger).0
            ExistingDatabase.announce(configuration.database)
            return (configuration, database)
        } catch {
            throw Failure.exit(error, code: Failure.code(for: error))
        }
    }
}

extension DatabaseOptions {
    /// Loads the configuration, opens its *existing* database as it is (``OfflineDatabase``: neither created nor
    /// migrated), names it on standard error, runs `body` with it and closes it. Any error `body` throws is printed
    /// as one line and exits 1: the prologue of the commands that only read the database.
    func withExistingDatabase<Result>(
        _ body: (ServiceConfiguration, Database) throws -> Result
    ) throws -> Result {
        let configuration = try load()
        do {
            let database = try OfflineDatabase.open(configuration)
            defer { database.close() }
            ExistingDatabase.announce(configuration.database)
            return try body(configuration, database)
        } catch let exit as ExitCode {
            throw exit
        } catch {
            throw Failure.exit(error)
        }
    }
}

/// `serve`'s flags: the database options plus the listener, drain, cache and limiter settings.
struct ServeOptions: ParsableArguments {
    @OptionGroup var databaseOptions: DatabaseOptions

    @Option(help: ArgumentHelp("Address to listen on. [default: 127.0.0.1]", valueName: "address"))
    var host: String?

    @Option(help: ArgumentHelp("TCP port; 0 picks a free one. [default: 8080]", valueName: "port"))
    var port: String?

    @Option(
        help: ArgumentHelp(
            "Policy loaded as app 'demo' into an empty database; \"\" disables. [default: config/demo-policy.json]",
            valueName: "path"))
    var demoPolicy: String?

    @Option(help: ArgumentHelp("Seconds in-flight requests get at shutdown. [default: 10]", valueName: "seconds"))
    var shutdownGracePeriod: String?

    @Option(
        help: ArgumentHelp(
            "Seconds /readyz answers 503 after SIGTERM while requests are still served. [default: 5]",
            valueName: "seconds"))
    var drainSeconds: String?

    @Option(help: ArgumentHelp("Reader connections to the database. [default: 4]", valueName: "count"))
    var databaseReaders: String?

    @Option(
        help: ArgumentHelp(
            "Address of a separate admin listener (with --admin-port). [default: --host]", valueName: "address"))
    var adminHost: String?

    @Option(
        help: ArgumentHelp(
            "Serve /v1/admin/** only on this port (0 picks a free one). [default: the main listener]",
            valueName: "port"))
    var adminPort: String?
    @Option(help: ArgumentHelp("Cache-Control max-age of policy responses. [default: 60]", valueName: "seconds"))
    var policyMaxAge: String?

    @Option(help: ArgumentHelp("stale-while-revalidate of policy responses. [default: 300]", valueName: "seconds"))
    var policyStaleWhileRevalidate: String?

    @Option(help: ArgumentHelp("stale-if-error of policy responses. [default: 86400]", valueName: "seconds"))
    var policyStaleIfError: String?

    @Option(help: ArgumentHelp("Resolved-policy responses cached per revision. [default: 1024]", valueName: "count"))
    var resolvedCacheSize: String?

    @Option(help: ArgumentHelp("Days raw events are kept; 0 keeps them forever. [default: 90]", valueName: "days"))
    var eventRetentionDays: String?

    @Option(
        help: ArgumentHelp(
            "Failed admin authentications per minute from one address before 429. [default: 10]", valueName: "count"))
    var adminAuthFailuresPerMinute: String?

    @Option(
        help: ArgumentHelp(
            "Events one install may send per second; 0 turns the budget off. [default: 20]", valueName: "rate"))
    var eventsPerInstallPerSecond: String?

    @Option(help: ArgumentHelp("Events one install may send at once. [default: 2000]", valueName: "count"))
    var eventsPerInstallBurst: String?

    @Option(
        help: ArgumentHelp(
            "Events one client address may send per second; 0 turns the budget off. [default: 200000]",
            valueName: "rate"))
    var eventsPerAddressPerSecond: String?

    @Option(help: ArgumentHelp("Events one client address may send at once. [default: 1000000]", valueName: "count"))
    var eventsPerAddressBurst: String?

    @Option(
        help: ArgumentHelp(
            "Proxies whose X-Forwarded-For names the client: comma-separated CIDRs. [default: none]",
            valueName: "cidrs"))
    var trustedProxies: String?

    @Option(
        help: ArgumentHelp(
            "Run as a read replica of the primary at this http:// or https:// URL (token in PRELUDE_FOLLOW_TOKEN).",
            valueName: "url"))
    var follow: String?

    @Option(
        help: ArgumentHelp(
            "PEM file of CAs trusted for an https:// primary instead of the system's. [default: system bundle]",
            valueName: "path"))
    var tlsCAFile: String?

    @Option(
        help: ArgumentHelp(
            "Hosts webhook URLs may name: comma-separated host, *.domain or http://host[:port]. [default: none]",
            valueName: "hosts"))
    var webhookAllowedHosts: String?

    @Option(
        help: ArgumentHelp(
            "Checkpoint at close: truncate, or passive beside Litestream. [default: truncate]", valueName: "mode"))
    var checkpoints: String?

    /// The serve-only flags given, by setting.
    var flags: [ConfigurationSetting: String] {
        var flags: [ConfigurationSetting: String] = [:]
        flags[.host] = host
        flags[.port] = port
        flags[.demoPolicy] = demoPolicy
        flags[.shutdownGracePeriod] = shutdownGracePeriod
        flags[.drainSeconds] = drainSeconds
        flags[.databaseReaders] = databaseReaders
        flags[.adminHost] = adminHost
        flags[.adminPort] = adminPort
        flags[.policyMaxAge] = policyMaxAge
        flags[.policyStaleWhileRevalidate] = policyStaleWhileRevalidate
        flags[.policyStaleIfError] = policyStaleIfError
        flags[.checkpoints] = checkpoints
        flags[.resolvedCacheSize] = resolvedCacheSize
        flags[.eventRetentionDays] = eventRetentionDays
        flags[.adminAuthFailuresPerMinute] = adminAuthFailuresPerMinute
        flags[.eventsPerInstallPerSecond] = eventsPerInstallPerSecond
        flags[.eventsPerInstallBurst] = eventsPerInstallBurst
        flags[.eventsPerAddressPerSecond] = eventsPerAddressPerSecond
        flags[.eventsPerAddressBurst] = eventsPerAddressBurst
        flags[.trustedProxies] = trustedProxies
        flags[.followURL] = follow
        flags[.tlsCAFile] = tlsCAFile
        flags[.webhookAllowedHosts] = webhookAllowedHosts
        return flags
    }

    /// Merges file, environment and every flag, or prints the problem and exits with EX_CONFIG (78).
    func load() throws -> ServiceConfiguration { try databaseOptions.load(adding: flags) }
}

/// The database a command other than `serve` and `migrate` works on: it must exist, and the command says which.
enum ExistingDatabase {
    /// No file at the configured path.
    struct Missing: Error, CustomStringConvertible {
        /// A sentence naming the path and what to do.
        let description: String
    }

    /// Refuses a path with no file, naming it and how to create one.
    static func require(_ path: String) throws {
        // A PostgreSQL database is the server's to know: connecting says whether it is there.
        guard DatabaseLocation.isPostgres(path) || FileManager.default.fileExists(atPath: path) else {
            throw Missing(
                description: "no database at \(absolute(path)); `prelude serve` or `prelude migrate` creates one "
                    + "(set --database, PRELUDE_DATABASE or the config file's \"database\" to use another)")
        }
    }

    /// Names the database used, on standard error (standard output stays the command's result).
    static func announce(_ path: String) {
        StandardIO.error("prelude: database \(absolute(path))\n")
    }

    /// `path` made absolute against the working directory.
    static func absolute(_ path: String) -> String {
        if DatabaseLocation.isPostgres(path) { return DatabaseLocation(path).description }
        return path.hasPrefix("/")
            ? path : FilePath.join(FileManager.default.currentDirectoryPath, path)
    }
}

/// Prints an error as one line on standard error and exits with a code.
enum Failure {
    /// EX_CONFIG (78) for configuration, 1 otherwise.
    static func exit(_ error: any Error, code: Int32 = 1) -> ExitCode {
        let line = "prelude: error: \(error)\n"
        StandardIO.error(line)
        return ExitCode(code)
    }

    /// The exit code for a start-up failure: 78 for configuration problems, 1 for the rest.
    static func code(for error: any Error) -> Int32 {
        error is ConfigurationError || error is StartupError || (error as? StorageError)?.isUnreachableServer == true
            ? 78 : 1
    }
}
