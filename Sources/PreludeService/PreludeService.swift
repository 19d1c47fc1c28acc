import PreludeHTTP
import PreludeHTTPClient
import PreludeStorage
import PreludeStore
import Synchronization

#if canImport(FoundationEssentials)
    import Dispatch
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

/// The running service: database opened and migrated, demo seeded, HTTP server listening.
///
/// `start` does everything in order and fails with a readable error (`ConfigurationError`,
/// `MigrationError`, `StartupError`, `StorageError`) before anything listens; `stop` drains and closes.
package final class PreludeService: Sendable {
    /// The merged configuration.
    package let configuration: ServiceConfiguration
    /// The open database.
    package var database: Database { repositories.database }
    /// Its repositories, built once here and handed to every feature (``PreludeStore/Store``).
    package let repositories: Store
    /// The migrator built from the migrations directory.
    package let migrator: Migrator
    /// The HTTP server.
    package let server: HTTPServer
    /// The bound TCP port (useful when configured as 0).
    package let port: Int
    /// The separate admin listener, when `adminPort` is set (see docs/admin.md).
    package let adminServer: HTTPServer?
    /// Its bound port.
    package let adminPort: Int?
    /// The live policy of every app (admin writes commit through it).
    package let policyStore: PolicyStore
    /// Stores client event batches (its statistics count transactions, batches and events).
    package let eventIngestor: EventIngestor
    private let logger: Logger
    private let draining: DrainFlag
    /// The role's background work, started in list order and stopped in reverse (``BackgroundServices``).
    package let services: BackgroundServices
    /// Follow mode's sync and forwarder; nil on a primary.
    package let replica: ReadReplica?
    /// Guarded rollouts (docs/rollouts.md); tests drive ``RolloutController/evaluateAll()`` on an injected clock.
    package let rollouts: RolloutController
    /// The guard's scheduler; nil on a read replica.
    package let rolloutScheduler: RolloutScheduler?
    /// The admin API (change requests and their scheduler among it).
    package let admin: AdminAPI
    /// The primary's webhook sender (docs/webhooks.md); nil on a read replica.
    package let webhooks: WebhookDispatcher?
    /// Which work that must run once this node leads (docs/scaling.md, "PostgreSQL cluster"); nil on a replica.
    package let election: LeaderElection?
    private let stopped = Mutex(false)

    private init(
        configuration: ServiceConfiguration, repositories: Store, migrator: Migrator, server: HTTPServer, port: Int,
        policyStore: PolicyStore, eventIngestor: EventIngestor, adminServer: HTTPServer?, adminPort: Int?,
        logger: Logger, draining: DrainFlag, services: BackgroundServices,
        replica: ReadReplica?, rollouts: RolloutController, rolloutScheduler: RolloutScheduler?, admin: AdminAPI,
        webhooks: WebhookDispatcher?, election: LeaderElection?
    ) {
        self.election = election
        self.admin = admin
        self.replica = replica
        self.rollouts = rollouts
        self.rolloutScheduler = rolloutScheduler
        self.webhooks = webhooks
        self.policyStore = policyStore
        self.eventIngestor = eventIngestor
        self.configuration = configuration
        self.repositories = repositories
        self.migrator = migrator
        self.server = server
        self.port = port
        self.adminServer = adminServer
        self.adminPort = adminPort
        self.logger = logger
        self.draining = draining
        self.services = services
    }

    /// Opens and migrates the database, seeds the demo on an empty one, and starts listening.
    ///
    /// `eventObservers` see every newly stored client event inside its transaction (``EventIngestionObserver``).
    /// `clock` is the decide endpoint's "now"; tests that replay flows over simulated time set it. `adminClock`
    /// stamps admin changes and times scheduled publishes; `changeRules` replaces the environments' stored approval
    /// rules (tests of change requests). `webhookTiming` replaces the webhook dispatcher's clock and jitter, and then
    /// its thread is not started: the test drives it with ``WebhookDispatcher/runDue()``.
    ///
    /// The background work starts last, once both listeners are up, from the role's ``BackgroundServices`` list.
    package static func start(
        configuration: ServiceConfiguration, logger: Logger, eventObservers: [any EventIngestionObserver] = [],
        clock: ServiceClock = .system, adminClock: ServiceClock = .system,
        changeRules: EnvironmentRules.Source? = nil,
        webhookTiming: (clock: ServiceClock, random: @Sendable () -> Double)? = nil
    ) throws -> PreludeService {
        let (database, migrator, _) = try openAndMigrate(configuration: configuration, logger: logger)
        // The one owner of the database's repositories; every feature below is handed what it uses of it.
        let repositories = Store(database: database)
        do {
            // A replica's apps are the primary's: a demo app of its own would be served until the first sync.
            if configuration.followURL == nil {
                try seedDemo(configuration: configuration, repositories: repositories, logger: logger)
            }
            let policyStore = try PolicyStore.start(
                policies: repositories.policies, configuration: configuration, logger: logger)
            // Before listening, so a revision another process commits from now on is never missed.
            let policyReloader = try LivePolicyReloader(database: database, store: policyStore, logger: logger)
            let observability = Observability(logger: logger, database: database, policies: policyStore)
            let draining = DrainFlag()
            var router = Router()
            let storageHealth = StorageHealth(database: database)
            storageHealth.register(on: observability.registry)
            let replica = try configuration.followURL.map { url in
                try ReadReplica(
                    primary: url, token: configuration.followToken ?? RedactedSecret(""), repositories: repositories,
                    store: policyStore, logger: logger, caFile: configuration.tlsCAFile)
            }
            replica?.register(on: observability.registry)
            var replicaReadiness: (@Sendable () -> String?)?
            if let replica { replicaReadiness = { replica.notReadyReason } }
            // Nodes sharing one PostgreSQL database run the work that must run once on one of them each; on SQLite
            // this process leads everything (docs/scaling.md, "PostgreSQL cluster"). A replica runs none of it.
            let election = makeElection(replica: replica, database: database, logger: logger)
            election?.register(on: observability.registry)
            var leaderRoles: (@Sendable () -> [LeaderWork])?
            if let election { leaderRoles = { election.roles } }
            HealthRoutes.register(
                on: &router, database: database, migrator: migrator, storage: storageHealth, replica: replicaReadiness,
                policies: { policyStore.readinessProblem }, leader: leaderRoles
            ) { draining.isSet }
            ObservabilityRoutes.register(on: &router, observability: observability)
            let aggregator = ExperimentAggregator { policyStore.snapshot(app: $0, environment: $1)?.document }
            // The guard runs on the primary only: a replica serves the assignment it mirrors, never decides a step.
            let rollouts = RolloutController(
                repositories: repositories, store: policyStore, clock: clock, logger: logger)
            let rolloutScheduler =
                replica == nil ? RolloutScheduler(controller: rollouts) : nil
            for counter in rollouts.counters { observability.registry.register(counter) }
            let eventIngestor = makeEventIngestor(
                database: database, replica: replica, observers: eventObservers, aggregator: aggregator,
                rolloutScheduler: rolloutScheduler)
            observability.observe(events: eventIngestor)
            let eventBudget = IngestionBudget(configuration)
            eventBudget.register(on: observability.registry)
            PublicRoutes.register(
                on: &router, store: policyStore, events: eventIngestor,
                eventBudget: eventBudget, clock: clock)
            let webhooks = makeWebhookDispatcher(
                configuration: configuration, webhooks: repositories.webhooks, logger: logger, timing: webhookTiming)
            webhooks?.register(on: observability.registry)
            let admin = try AdminAPI.make(
                configuration: configuration, repositories: repositories, store: policyStore, logger: logger,
                rollouts: rollouts, clock: adminClock, changeRules: changeRules, webhookDispatcher: webhooks)
            var adminRouter = Router()
            registerAdmin(
                admin, ingestor: eventIngestor, on: &router, or: &adminRouter, configuration: configuration)
            let (server, port, adminServer, adminPort) = try listen(
                configuration: configuration, router: router, adminRouter: adminRouter, observability: observability,
                logger: logger)
            let eventRetention = EventRetentionTask(
                pruner: EventPruner(retentionDays: configuration.eventRetentionDays), database: database,
                logger: logger)
            let services = BackgroundServices.forRole(
                replica: replica, election: election, reloader: policyReloader, scheduler: admin.scheduler,
                rollouts: rolloutScheduler, webhooks: webhooks, retention: eventRetention)
            services.start()
            if let replica {
                logger.info("following the primary", ["primary": "\(replica.primary)"])
            }
            logger.info(
                "listening",
                ["host": configuration.host, "database": configuration.database, "version": ServiceInfo.version],
                numbers: ["port": Double(port)])
            return PreludeService(
                configuration: configuration, repositories: repositories, migrator: migrator, server: server,
                port: port,
                policyStore: policyStore, eventIngestor: eventIngestor, adminServer: adminServer, adminPort: adminPort,
                logger: logger, draining: draining, services: services,
                replica: replica, rollouts: rollouts, rolloutScheduler: rolloutScheduler, admin: admin,
                webhooks: webhooks, election: election)
        } catch {
            database.close()
            throw error
        }
    }

    /// Gives back the memory start-up used and serving does not (``StartupMemory``): call once, after `start`.
    /// `prelude serve` does; the request path is unchanged.
    @discardableResult
    package func releaseStartupMemory() -> StartupMemory.Released {
        let released = StartupMemory.release(database: database)
        logger.debug(
            "start-up memory released",
            numbers: [
                "unmappedMappings": Double(released.mappings), "unmappedKiB": Double(released.mappedKiB),
                "mallocTrimmed": released.trimmed ? 1 : 0,
            ])
        return released
    }

    /// Applies pending migrations and closes the database: `prelude migrate`. Returns the names applied.
    package static func migrate(configuration: ServiceConfiguration, logger: Logger) throws -> [String] {
        let (database, _, applied) = try openAndMigrate(configuration: configuration, logger: logger)
        database.close()
        return applied
    }

    /// Reads the configured database without changing it: pending migrations and what this build does with every
    /// stored revision (`prelude migrate --check`). Throws `MigrationError` when the database has a migration this
    /// build does not know (a newer build wrote it) or an applied one changed.
    package static func upgradeCheck(configuration: ServiceConfiguration) throws -> UpgradeCheck {
        let location = DatabaseLocation(configuration.database)
        let directory = try migrationsDirectory(configuration, engine: location.engine)
        let migrator = Migrator(migrations: try MigrationCatalog.load(directory: directory))
        let database = try Database(location: location, readerCount: 1, closeCheckpoint: .passive)
        defer { database.close() }
        return try UpgradeCheck(repositories: Store(database: database), migrator: migrator)
    }

    /// Drains, then stops accepting, lets in-flight requests finish within the grace period and closes the
    /// database. Idempotent.
    ///
    /// - Parameter drain: when true (SIGTERM), `/readyz` answers 503 for `drainSeconds` first while every request
    ///   is still served, so load balancers stop routing here before the listener closes (docs/kubernetes.md).
    ///   SIGINT (an operator's Ctrl-C) passes false.
    package func stop(drain: Bool = false) {
        let first = stopped.withLock { value in
            defer { value = true }
            return !value
        }
        guard first else { return }
        draining.set()
        if drain, configuration.drainSeconds > 0 {
            logger.info("draining", numbers: ["drainSeconds": configuration.drainSeconds])
            let nanoseconds = Int(configuration.drainSeconds * 1e9)
            var duration = timespec(tv_sec: nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
            var remaining = timespec()
            while nanosleep(&duration, &remaining) == -1 && errno == EINTR { duration = remaining }
        }
        logger.info("stopping", numbers: ["gracePeriod": configuration.shutdownGracePeriod])
        // Held change-feed polls answer 304 now instead of holding the shutdown for their wait.
        policyStore.changes.close()
        // Both listeners drain at the same time, so stopping never takes more than one grace period.
        if let adminServer {
            let grace = configuration.shutdownGracePeriod
            DispatchQueue.global().async { adminServer.shutdown(gracePeriod: grace) }
        }
        server.shutdown(gracePeriod: configuration.shutdownGracePeriod)
        server.waitUntilStopped()
        adminServer?.waitUntilStopped()
        // In reverse list order, each waiting for its run in progress; the election last among a primary's, so
        // another node takes the roles only after this one's leader-only work stopped.
        services.stop()
        database.close()
        logger.info("stopped")
    }

    /// Opens the database and applies pending migrations (also used by `prelude token`).
    package static func openAndMigrate(
        configuration: ServiceConfiguration, logger: Logger
    ) throws -> (Database, Migrator, applied: [String]) {
        let location = DatabaseLocation(configuration.database)
        if location.engine == .sqlite { try DatabasePathCheck.check(configuration.database) }
        let directory = try migrationsDirectory(configuration, engine: location.engine)
        let migrator = Migrator(migrations: try MigrationCatalog.load(directory: directory))
        let existed = location.engine == .postgres || FileManager.default.fileExists(atPath: configuration.database)
        let database = try Database(
            location: location, readerCount: configuration.databaseReaders,
            closeCheckpoint: configuration.checkpoints)
        do {
            if !existed {
                // A mistyped --database must not pass for the real one: say loudly that this file is new.
                let path =
                    configuration.database.hasPrefix("/")
                    ? configuration.database
                    : FilePath.join(FileManager.default.currentDirectoryPath, configuration.database)
                logger.warning("created new database at \(path)", ["path": path])
            }
            let applied = try migrator.migrate(database)
            if !applied.isEmpty {
                logger.info("migrations applied", ["names": applied.joined(separator: ","), "directory": directory])
            }
            return (database, migrator, applied)
        } catch {
            database.close()
            throw error
        }
    }

    /// `prelude copy`: copies every row of the database at `source` into the one at `target` (created and migrated
    /// when new; it must be empty), then checks the copy (``DatabaseCopy``). The source must be fully migrated by
    /// this build and is never changed.
    package static func copyDatabase(
        from source: String, to target: String, configuration: ServiceConfiguration, logger: Logger
    ) throws -> DatabaseCopy.Report {
        let sourceLocation = DatabaseLocation(source)
        guard sourceLocation != DatabaseLocation(target) else {
            throw DatabaseCopy.Failure(description: "--from and --to name the same database")
        }
        let sourceDatabase = try OfflineDatabase.open(path: source)
        defer { sourceDatabase.close() }
        let sourceMigrator = Migrator(
            migrations: try MigrationCatalog.load(
                directory: try migrationsDirectory(configuration, engine: sourceLocation.engine)))
        let pending = try sourceMigrator.pendingMigrations(sourceDatabase)
        guard pending.isEmpty else {
            throw DatabaseCopy.Failure(
                description: "the source has \(pending.count) pending migrations; run `prelude migrate` on it first")
        }
        var targetConfiguration = configuration
        targetConfiguration.database = target
        let (targetDatabase, _, _) = try openAndMigrate(configuration: targetConfiguration, logger: logger)
        defer { targetDatabase.close() }
        return try DatabaseCopy.copy(from: sourceDatabase, to: targetDatabase)
    }

    /// The migrations of the engine in use: the configured directory for SQLite, its `postgres` folder for
    /// PostgreSQL (docs/storage.md, "Migrations per engine").
    package static func migrationsDirectory(_ configuration: ServiceConfiguration, engine: DatabaseEngine) throws
        -> String
    {
        let directory = try locate(configuration.migrationsDirectory, setting: .migrationsDirectory)
        return engine == .sqlite ? directory : FilePath.join(directory, "postgres")
    }

    private static func seedDemo(configuration: ServiceConfiguration, repositories: Store, logger: Logger) throws {
        guard !configuration.demoPolicy.isEmpty else { return }
        // Only an empty database is seeded; skip the file search (and its warning) otherwise.
        let appCount = try repositories.policies.appCount()
        guard appCount == 0 else { return }
        let path: String
        do {
            path = try locate(configuration.demoPolicy, setting: .demoPolicy)
        } catch {
            // The default file is optional (an install without the demo); a path the operator named is not.
            if configuration.demoPolicy == ServiceConfiguration().demoPolicy {
                logger.warning(
                    "demo policy not found; starting without the demo app", ["path": configuration.demoPolicy])
                return
            }
            throw error
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw StartupError.invalidDemoPolicy(path: path, reason: "cannot read the file")
        }
        let seeded: Bool
        do {
            seeded = try DemoSeeder.seedIfEmpty(
                repositories.database, documentText: String(decoding: data, as: UTF8.self), sourcePath: path)
        } catch let invalid as DemoSeeder.InvalidDocument {
            throw StartupError.invalidDemoPolicy(path: invalid.path, reason: invalid.reason)
        }
        if seeded { logger.info("demo policy loaded", ["app": DemoSeeder.appID, "path": path]) }
    }

    private static func locate(_ path: String, setting: ConfigurationSetting) throws -> String {
        if let found = ResourceLocator.locate(path) { return found }
        throw StartupError.resourceNotFound(
            setting: setting, path: path,
            searched: ResourceLocator.candidates(
                path, currentDirectory: FileManager.default.currentDirectoryPath,
                executablePath: ResourceLocator.executablePath()))
    }
}

/// Set once shutdown begins, so `/readyz` turns 503 while requests drain.
final class DrainFlag: Sendable {
    private let value = Atomic(false)
    var isSet: Bool { value.load(ordering: .acquiring) }
    func set() { value.store(true, ordering: .releasing) }
}
