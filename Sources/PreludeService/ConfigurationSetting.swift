import PreludeStorage

/// Every service setting. Its row in ``definition`` is the one table of settings: the names it has in each source,
/// its default, its `--help` text and its parser. The configuration code, the command-line options and
/// docs/configuration.md derive from or are checked against it (ConfigurationTableTests, SettingOptionsTests).
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
    package var environmentVariable: String { definition.environmentVariable }

    /// The command-line flag, e.g. `--port`.
    package var flag: String { definition.flag }

    /// The setting's row of the table.
    package var definition: SettingDefinition {
        switch self {
        case .host:
            SettingDefinition(
                "PRELUDE_HOST", "--host", default: "127.0.0.1", help: "Address to listen on.", valueName: "address",
                .hostName, into: \.host)
        case .port:
            SettingDefinition(
                "PRELUDE_PORT", "--port", default: "8080", help: "TCP port; 0 picks a free one.", valueName: "port",
                .integer(in: 0...65535, "a TCP port (0–65535; 0 picks a free port)"), into: \.port)
        case .database:
            SettingDefinition(
                "PRELUDE_DATABASE", "--database", default: "prelude.sqlite", help: "SQLite database file.",
                valueName: "path", commands: .everyDatabaseCommand, .nonEmpty("the database path is empty"),
                into: \.database)
        case .logLevel:
            SettingDefinition(
                "PRELUDE_LOG_LEVEL", "--log-level", default: "info", help: "debug, info, notice, warning or error.",
                valueName: "level", commands: .everyDatabaseCommand, .choice("log level"), into: \.logLevel)
        case .migrationsDirectory:
            SettingDefinition(
                "PRELUDE_MIGRATIONS_DIR", "--migrations-dir", default: "migrations",
                help: "Directory of NNNN_name.sql migrations.", valueName: "path", commands: .everyDatabaseCommand,
                .nonEmpty("the migrations directory is empty"), into: \.migrationsDirectory)
        case .demoPolicy:
            SettingDefinition(
                "PRELUDE_DEMO_POLICY", "--demo-policy", default: "config/demo-policy.json",
                help: "Policy loaded as app 'demo' into an empty database; \"\" disables.", valueName: "path", .text,
                into: \.demoPolicy)
        case .shutdownGracePeriod:
            SettingDefinition(
                "PRELUDE_SHUTDOWN_GRACE_PERIOD", "--shutdown-grace-period", default: "10",
                help: "Seconds in-flight requests get at shutdown.", valueName: "seconds", .seconds,
                into: \.shutdownGracePeriod)
        case .drainSeconds:
            SettingDefinition(
                "PRELUDE_DRAIN_SECONDS", "--drain-seconds", default: "5",
                help: "Seconds /readyz answers 503 after SIGTERM while requests are still served.",
                valueName: "seconds", .seconds, into: \.drainSeconds)
        case .databaseReaders:
            SettingDefinition(
                "PRELUDE_DATABASE_READERS", "--database-readers", default: "4",
                help: "Reader connections to the database.", valueName: "count",
                .integer(in: 1...64, "a reader count between 1 and 64"), into: \.databaseReaders)
        case .adminHost:
            SettingDefinition(
                "PRELUDE_ADMIN_HOST", "--admin-host", default: .unset("--host"),
                help: "Address of a separate admin listener (with --admin-port).", valueName: "address",
                SettingParser<String>.hostName.optional, into: \.adminHost)
        case .adminPort:
            SettingDefinition(
                "PRELUDE_ADMIN_PORT", "--admin-port", default: .unset("the main listener"),
                help: "Serve /v1/admin/** only on this port (0 picks a free one).", valueName: "port",
                SettingParser<Int>.integer(in: 0...65535, "a TCP port (0–65535; 0 picks a free port)").optional,
                into: \.adminPort)
        case .policyMaxAge:
            SettingDefinition(
                "PRELUDE_POLICY_MAX_AGE", "--policy-max-age", default: "60",
                help: "Cache-Control max-age of policy responses.", valueName: "seconds", .cacheSeconds,
                into: \.policyMaxAge)
        case .policyStaleWhileRevalidate:
            SettingDefinition(
                "PRELUDE_POLICY_STALE_WHILE_REVALIDATE", "--policy-stale-while-revalidate", default: "300",
                help: "stale-while-revalidate of policy responses.", valueName: "seconds", .cacheSeconds,
                into: \.policyStaleWhileRevalidate)
        case .policyStaleIfError:
            SettingDefinition(
                "PRELUDE_POLICY_STALE_IF_ERROR", "--policy-stale-if-error", default: "86400",
                help: "stale-if-error of policy responses.", valueName: "seconds", .cacheSeconds,
                into: \.policyStaleIfError)
        case .resolvedCacheSize:
            SettingDefinition(
                "PRELUDE_RESOLVED_CACHE_SIZE", "--resolved-cache-size", default: "1024",
                help: "Resolved-policy responses cached per revision.", valueName: "count",
                .integer(in: 1...1_000_000, "an entry count between 1 and 1000000"), into: \.resolvedCacheCapacity)
        case .eventRetentionDays:
            SettingDefinition(
                "PRELUDE_EVENT_RETENTION_DAYS", "--event-retention-days", default: "90",
                help: "Days raw events are kept; 0 keeps them forever.", valueName: "days",
                .integer(in: 0...36500, "a number of days between 0 (keep forever) and 36500"),
                into: \.eventRetentionDays)
        case .adminAuthFailuresPerMinute:
            SettingDefinition(
                "PRELUDE_ADMIN_AUTH_FAILURES_PER_MINUTE", "--admin-auth-failures-per-minute", default: "10",
                help: "Failed admin authentications per minute from one address before 429.", valueName: "count",
                .integer(in: 1...100_000, "a number of failures between 1 and 100000"),
                into: \.adminAuthFailuresPerMinute)
        case .eventsPerInstallPerSecond:
            SettingDefinition(
                "PRELUDE_EVENTS_PER_INSTALL_PER_SECOND", "--events-per-install-per-second", default: "20",
                help: "Events one install may send per second; 0 turns the budget off.", valueName: "rate",
                .eventRate, into: \.eventsPerInstallPerSecond)
        case .eventsPerInstallBurst:
            SettingDefinition(
                "PRELUDE_EVENTS_PER_INSTALL_BURST", "--events-per-install-burst", default: "2000",
                help: "Events one install may send at once.", valueName: "count", .eventBurst,
                into: \.eventsPerInstallBurst)
        case .eventsPerAddressPerSecond:
            SettingDefinition(
                "PRELUDE_EVENTS_PER_ADDRESS_PER_SECOND", "--events-per-address-per-second", default: "200000",
                help: "Events one client address may send per second; 0 turns the budget off.", valueName: "rate",
                .eventRate, into: \.eventsPerAddressPerSecond)
        case .eventsPerAddressBurst:
            SettingDefinition(
                "PRELUDE_EVENTS_PER_ADDRESS_BURST", "--events-per-address-burst", default: "1000000",
                help: "Events one client address may send at once.", valueName: "count", .eventBurst,
                into: \.eventsPerAddressBurst)
        case .trustedProxies:
            SettingDefinition(
                "PRELUDE_TRUSTED_PROXIES", "--trusted-proxies", default: .unset("none"),
                help: "Proxies whose X-Forwarded-For names the client: comma-separated CIDRs.", valueName: "cidrs",
                .list(
                    TrustedProxies.init(parsing:), entry: \.entry,
                    "an IP address or CIDR network (e.g. 10.0.0.0/8, fd00::/8)"), into: \.trustedProxies)
        case .followURL:
            SettingDefinition(
                "PRELUDE_FOLLOW_URL", "--follow", default: .unset(nil),
                help: "Run as a read replica of the primary at this http:// or https:// URL (token in "
                    + "PRELUDE_FOLLOW_TOKEN).", valueName: "url", .followURL, into: \.followURL)
        case .tlsCAFile:
            SettingDefinition(
                "PRELUDE_TLS_CA_FILE", "--tls-ca-file", default: .unset("system bundle"),
                help: "PEM file of CAs trusted for an https:// primary instead of the system's.", valueName: "path",
                .optionalText, into: \.tlsCAFile)
        case .webhookAllowedHosts:
            SettingDefinition(
                "PRELUDE_WEBHOOK_ALLOWED_HOSTS", "--webhook-allowed-hosts", default: .unset("none"),
                help: "Hosts webhook URLs may name: comma-separated host, *.domain or http://host[:port].",
                valueName: "hosts",
                .list(
                    WebhookAllowlist.init(parsing:), entry: \.entry,
                    "a host, *.domain or http://host entry, with an optional :port "
                        + "(e.g. hooks.example.com, *.example.com, http://receiver.internal:8080)"),
                into: \.webhookAllowedHosts)
        case .checkpoints:
            SettingDefinition(
                "PRELUDE_CHECKPOINTS", "--checkpoints", default: "truncate",
                help: "Checkpoint at close: truncate, or passive beside Litestream.", valueName: "mode",
                .choice("checkpoint mode"), into: \.checkpoints)
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

extension SettingParser where Value == Double {
    /// Seconds of the shutdown phases.
    fileprivate static var seconds: Self { .number(in: 0...3600, "a number of seconds between 0 and 3600") }

    /// An event budget's refill rate.
    fileprivate static var eventRate: Self {
        .number(in: 0...10_000_000, "a number of events per second between 0 (no budget) and 10000000")
    }
}

extension SettingParser where Value == Int {
    /// A policy response's cache lifetime. A week at most: a longer max-age would keep a bad policy on devices long
    /// after a rollback.
    fileprivate static var cacheSeconds: Self {
        .integer(in: 0...604_800, "a whole number of seconds between 0 and 604800")
    }

    /// An event budget's size. A burst below one full batch would refuse a valid batch forever.
    fileprivate static var eventBurst: Self {
        .integer(
            in: EventBatch.maxEvents...100_000_000,
            "a number of events between \(EventBatch.maxEvents) (one full batch) and 100000000")
    }
}
