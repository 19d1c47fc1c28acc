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

    @Option(setting: .database) var database: String?
    @Option(setting: .logLevel) var logLevel: String?
    @Option(setting: .migrationsDirectory) var migrationsDirectory: String?

    /// The flags given, by setting.
    var flags: [ConfigurationSetting: String] { SettingOptions.given(in: self) }

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
    /// run in the wrong directory must not report success on a new, empty database. Returns its repositories, built
    /// once for the command (``PreludeStore/Store``); the caller closes the database.
    func openMigratedStore() throws -> (configuration: ServiceConfiguration, store: Store) {
        let configuration = try load()
        do {
            try ExistingDatabase.require(configuration.database)
            let logger = Self.commandLogger(configuration)
            let database = try PreludeService.openAndMigrate(configuration: configuration, logger: logger).0
            ExistingDatabase.announce(configuration.database)
            return (configuration, Store(database: database))
        } catch {
            throw Failure.exit(error, code: Failure.code(for: error))
        }
    }
}

extension DatabaseOptions {
    /// Loads the configuration, opens its *existing* database as it is (``OfflineDatabase``: neither created nor
    /// migrated), names it on standard error, runs `body` with its repositories (``PreludeStore/Store``) and closes
    /// it. Any error `body` throws is printed as one line and exits 1: the prologue of the commands that only read the
    /// database.
    func withExistingStore<Result>(
        _ body: (ServiceConfiguration, Store) throws -> Result
    ) throws -> Result {
        let configuration = try load()
        do {
            let database = try OfflineDatabase.open(configuration)
            defer { database.close() }
            ExistingDatabase.announce(configuration.database)
            return try body(configuration, Store(database: database))
        } catch let exit as ExitCode {
            throw exit
        } catch {
            throw Failure.exit(error)
        }
    }
}

/// `serve`'s flags: the database options plus the listener, drain, cache and limiter settings — every setting of the
/// table (``ConfigurationSetting/definition``) whose commands are `.serve`; SettingOptionsTests checks that none is
/// missing.
struct ServeOptions: ParsableArguments {
    @OptionGroup var databaseOptions: DatabaseOptions

    @Option(setting: .host) var host: String?
    @Option(setting: .port) var port: String?
    @Option(setting: .demoPolicy) var demoPolicy: String?
    @Option(setting: .shutdownGracePeriod) var shutdownGracePeriod: String?
    @Option(setting: .drainSeconds) var drainSeconds: String?
    @Option(setting: .databaseReaders) var databaseReaders: String?
    @Option(setting: .adminHost) var adminHost: String?
    @Option(setting: .adminPort) var adminPort: String?
    @Option(setting: .policyMaxAge) var policyMaxAge: String?
    @Option(setting: .policyStaleWhileRevalidate) var policyStaleWhileRevalidate: String?
    @Option(setting: .policyStaleIfError) var policyStaleIfError: String?
    @Option(setting: .resolvedCacheSize) var resolvedCacheSize: String?
    @Option(setting: .eventRetentionDays) var eventRetentionDays: String?
    @Option(setting: .adminAuthFailuresPerMinute) var adminAuthFailuresPerMinute: String?
    @Option(setting: .eventsPerInstallPerSecond) var eventsPerInstallPerSecond: String?
    @Option(setting: .eventsPerInstallBurst) var eventsPerInstallBurst: String?
    @Option(setting: .eventsPerAddressPerSecond) var eventsPerAddressPerSecond: String?
    @Option(setting: .eventsPerAddressBurst) var eventsPerAddressBurst: String?
    @Option(setting: .trustedProxies) var trustedProxies: String?
    @Option(setting: .followURL) var followURL: String?
    @Option(setting: .tlsCAFile) var tlsCAFile: String?
    @Option(setting: .webhookAllowedHosts) var webhookAllowedHosts: String?
    @Option(setting: .checkpoints) var checkpoints: String?

    /// The serve-only flags given, by setting.
    var flags: [ConfigurationSetting: String] { SettingOptions.given(in: self) }

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
