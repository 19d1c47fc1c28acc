/// Every service setting, with the names it has in each source. docs/configuration.md lists the same table.
package enum ConfigurationSetting: String, Sendable, CaseIterable {
    case host
    case port
    case database
    case logLevel
    case migrationsDirectory
    case demoPolicy
    case shutdownGracePeriod
    case drainSeconds
    case databaseReaders
    case adminHost
    case adminPort
    case policyMaxAge
    case policyStaleWhileRevalidate
    case policyStaleIfError
    case resolvedCacheSize
    case eventRetentionDays
    case adminAuthFailuresPerMinute
    case eventsPerInstallPerSecond
    case eventsPerInstallBurst
    case eventsPerAddressPerSecond
    case eventsPerAddressBurst
    case trustedProxies
    case followURL
    case tlsCAFile
    case webhookAllowedHosts
    case checkpoints

    /// The key in config/prelude.json.
    package var jsonKey: String { rawValue }

    /// The environment variable, e.g. `PRELUDE_PORT`.
    package var environmentVariable: String {
        switch self {
        case .host: "PRELUDE_HOST"
        case .port: "PRELUDE_PORT"
        case .database: "PRELUDE_DATABASE"
        case .logLevel: "PRELUDE_LOG_LEVEL"
        case .migrationsDirectory: "PRELUDE_MIGRATIONS_DIR"
        case .demoPolicy: "PRELUDE_DEMO_POLICY"
        case .shutdownGracePeriod: "PRELUDE_SHUTDOWN_GRACE_PERIOD"
        case .drainSeconds: "PRELUDE_DRAIN_SECONDS"
        case .databaseReaders: "PRELUDE_DATABASE_READERS"
        case .adminHost: "PRELUDE_ADMIN_HOST"
        case .adminPort: "PRELUDE_ADMIN_PORT"
        case .policyMaxAge: "PRELUDE_POLICY_MAX_AGE"
        case .policyStaleWhileRevalidate: "PRELUDE_POLICY_STALE_WHILE_REVALIDATE"
        case .policyStaleIfError: "PRELUDE_POLICY_STALE_IF_ERROR"
        case .resolvedCacheSize: "PRELUDE_RESOLVED_CACHE_SIZE"
        case .eventRetentionDays: "PRELUDE_EVENT_RETENTION_DAYS"
        case .adminAuthFailuresPerMinute: "PRELUDE_ADMIN_AUTH_FAILURES_PER_MINUTE"
        case .eventsPerInstallPerSecond: "PRELUDE_EVENTS_PER_INSTALL_PER_SECOND"
        case .eventsPerInstallBurst: "PRELUDE_EVENTS_PER_INSTALL_BURST"
        case .eventsPerAddressPerSecond: "PRELUDE_EVENTS_PER_ADDRESS_PER_SECOND"
        case .eventsPerAddressBurst: "PRELUDE_EVENTS_PER_ADDRESS_BURST"
        case .trustedProxies: "PRELUDE_TRUSTED_PROXIES"
        case .followURL: "PRELUDE_FOLLOW_URL"
        case .tlsCAFile: "PRELUDE_TLS_CA_FILE"
        case .webhookAllowedHosts: "PRELUDE_WEBHOOK_ALLOWED_HOSTS"
        case .checkpoints: "PRELUDE_CHECKPOINTS"
        }
    }

    /// The command-line flag, e.g. `--port`.
    package var flag: String {
        switch self {
        case .host: "--host"
        case .port: "--port"
        case .database: "--database"
        case .logLevel: "--log-level"
        case .migrationsDirectory: "--migrations-dir"
        case .demoPolicy: "--demo-policy"
        case .shutdownGracePeriod: "--shutdown-grace-period"
        case .drainSeconds: "--drain-seconds"
        case .databaseReaders: "--database-readers"
        case .adminHost: "--admin-host"
        case .adminPort: "--admin-port"
        case .policyMaxAge: "--policy-max-age"
        case .policyStaleWhileRevalidate: "--policy-stale-while-revalidate"
        case .policyStaleIfError: "--policy-stale-if-error"
        case .resolvedCacheSize: "--resolved-cache-size"
        case .eventRetentionDays: "--event-retention-days"
        case .adminAuthFailuresPerMinute: "--admin-auth-failures-per-minute"
        case .eventsPerInstallPerSecond: "--events-per-install-per-second"
        case .eventsPerInstallBurst: "--events-per-install-burst"
        case .eventsPerAddressPerSecond: "--events-per-address-per-second"
        case .eventsPerAddressBurst: "--events-per-address-burst"
        case .trustedProxies: "--trusted-proxies"
        case .followURL: "--follow"
        case .tlsCAFile: "--tls-ca-file"
        case .webhookAllowedHosts: "--webhook-allowed-hosts"
        case .checkpoints: "--checkpoints"
        }
    }

    /// Whether the JSON file gives this setting as a number (else a string).
    var isNumeric: Bool {
        switch self {
        case .port, .shutdownGracePeriod, .drainSeconds, .databaseReaders, .policyMaxAge, .policyStaleWhileRevalidate,
            .policyStaleIfError, .resolvedCacheSize, .adminPort, .eventRetentionDays, .adminAuthFailuresPerMinute:
            true
        case .eventsPerInstallPerSecond, .eventsPerInstallBurst, .eventsPerAddressPerSecond, .eventsPerAddressBurst:
            true
        default: false
        }
    }

    /// Environment variables that are not settings but are still ours (so not "unknown").
    /// `PRELUDE_ADMIN_TOKEN` is environment-only on purpose: a secret in a flag shows in `ps`, in a file it is easy
    /// to commit.
    /// `PRELUDE_URL` and `PRELUDE_TOKEN` are the client-side variables of the curl examples in docs/admin.md; an
    /// operator who exported them must still be able to run `prelude` in the same shell.
    /// `PRELUDE_FOLLOW_TOKEN` (the replica's token for its primary) is environment-only for the same reason.
    package static let otherEnvironmentVariables: Set<String> = [
        "PRELUDE_CONFIG", adminTokenVariable, "PRELUDE_URL", "PRELUDE_TOKEN", followTokenVariable,
    ]

    /// The read replica's token for the primary's change feed and event forwarding (docs/scaling.md).
    package static let followTokenVariable = "PRELUDE_FOLLOW_TOKEN"

    /// The bootstrap admin token's variable (see docs/admin.md).
    package static let adminTokenVariable = "PRELUDE_ADMIN_TOKEN"
}
