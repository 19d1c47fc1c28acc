import PreludeCore
import PreludeStorage
import PreludeStore

#if canImport(FoundationEssentials)
    import Dispatch
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

/// The service's settings after merging, lowest precedence first: built-in defaults, the JSON file
/// (config/prelude.json), `PRELUDE_*` environment variables, command-line flags.
package struct ServiceConfiguration: Sendable, Equatable {
    /// Address to listen on.
    package var host = "127.0.0.1"
    /// TCP port; 0 picks a free one (logged at start).
    package var port = 8080
    /// SQLite file path, created on first start; relative paths are relative to the working directory.
    package var database = "prelude.sqlite"
    /// Lowest log level written.
    package var logLevel = LogLevel.info
    /// Directory of `NNNN_name.sql` files; a relative path is searched as `ResourceLocator` describes.
    package var migrationsDirectory = "migrations"
    /// Policy loaded as app `demo` on first start with an empty database; empty disables it.
    package var demoPolicy = "config/demo-policy.json"
    /// Seconds in-flight requests get to finish after SIGTERM/SIGINT.
    package var shutdownGracePeriod = 10.0
    /// Seconds between SIGTERM and closing the listener, during which `/readyz` answers 503 while every request is
    /// still served, so load balancers and Kubernetes endpoints stop sending new traffic first (docs/kubernetes.md).
    /// SIGINT (Ctrl-C) skips it.
    package var drainSeconds = 5.0
    /// Reader connections in the pool.
    package var databaseReaders = 4
    /// Address of a separate admin listener; nil uses `host`. Only used when `adminPort` is set.
    package var adminHost: String?
    /// Port of a separate listener serving only `/v1/admin/**` (then the main one does not serve them); nil serves
    /// admin routes on the main listener.
    package var adminPort: Int?
    /// `PRELUDE_ADMIN_TOKEN`: stored hashed as the write token `bootstrap` at start. Environment only.
    package var adminToken: RedactedSecret?
    /// Seconds clients and caches may reuse a policy response without asking (`Cache-Control: max-age`).
    package var policyMaxAge = 60
    /// Seconds after `max-age` a cache may serve the old response while it revalidates (RFC 5861 §3).
    package var policyStaleWhileRevalidate = 300
    /// Seconds after `max-age` a cache may serve the old response when the service errs or is down (RFC 5861 §4).
    package var policyStaleIfError = 86400
    /// The most prepared resolved-policy responses kept per app revision.
    package var resolvedCacheCapacity = 1024
    /// Days raw events are kept before pruning (experiment aggregates are kept); 0 keeps them forever.
    package var eventRetentionDays = 90
    /// Failed admin authentications allowed per minute from one address before it gets 429 (docs/security.md, "The admin failure limiter").
    package var adminAuthFailuresPerMinute = 10
    /// `PRELUDE_*` variables that Kubernetes injected for a Service named `prelude` and that were therefore ignored
    /// (``ServiceLinkVariables``), sorted; `serve` logs them once.
    package var ignoredServiceLinkVariables: [String] = []
    /// Events one install may send per second on average (its budget's refill rate); 0 turns the budget off.
    package var eventsPerInstallPerSecond = 20.0
    /// Events one install may send at once (its budget's size); at least one full batch.
    package var eventsPerInstallBurst = 2_000
    /// Events one client address may send per second on average; 0 turns the budget off. High by default: without
    /// `trustedProxies`, every client behind one load balancer shares its address.
    package var eventsPerAddressPerSecond = 200_000.0
    /// Events one client address may send at once; at least one full batch.
    package var eventsPerAddressBurst = 1_000_000
    /// Proxies whose `X-Forwarded-For` names the client (CIDR networks and addresses); none by default.
    package var trustedProxies = TrustedProxies()
    /// The primary this server follows as a read replica (docs/scaling.md); nil runs a primary.
    package var followURL: FollowURL?
    /// `PRELUDE_FOLLOW_TOKEN`: the replica's `read` token on the primary. Environment only.
    package var followToken: RedactedSecret?
    /// A PEM file of certificate authorities the outbound client trusts instead of the system's bundle (a private
    /// CA for an `https://` primary); nil trusts the system's. Certificates are always verified (docs/http.md).
    package var tlsCAFile: String?
    /// The hosts webhook URLs may name (docs/webhooks.md, "Safety"); empty, the default, allows none.
    package var webhookAllowedHosts = WebhookAllowlist()
    /// The checkpoint at close (docs/storage.md, "Checkpoints"): `truncate`, or `passive` beside a WAL-shipping
    /// backup such as Litestream (docs/scaling.md).
    package var checkpoints = CheckpointMode.truncate

    /// The built-in defaults.
    package init() {}

    /// The default configuration file, searched like the other relative resources.
    package static let defaultConfigFile = "config/prelude.json"

    /// Merges the sources; pure, so tests need no process or files.
    ///
    /// - Parameters:
    ///   - fileText: the JSON file's contents, or nil when there is no file.
    ///   - fileName: the file's path, used in error messages.
    ///   - environment: the process environment; only `PRELUDE_*` names are looked at, and an unknown one is an error
    ///     (a typo such as `PRELUDE_PROT` must not be silently ignored).
    ///   - flags: values from the command line, by setting.
    package static func resolve(
        fileText: String?, fileName: String = defaultConfigFile, environment: [String: String],
        flags: [ConfigurationSetting: String]
    ) throws(ConfigurationError) -> ServiceConfiguration {
        var configuration = ServiceConfiguration()
        if let fileText { try configuration.apply(fileText: fileText, fileName: fileName) }
        for (name, value) in environment.sorted(by: { $0.key < $1.key }) where name.hasPrefix("PRELUDE_") {
            if ServiceLinkVariables.isInjected(name: name, value: value) {
                configuration.ignoredServiceLinkVariables.append(name)
            } else if let setting = ConfigurationSetting.allCases.first(where: { $0.environmentVariable == name }) {
                try configuration.apply(setting, value, source: name)
            } else if !ConfigurationSetting.otherEnvironmentVariables.contains(name) {
                let known =
                    ConfigurationSetting.allCases.map(\.environmentVariable)
                    + ConfigurationSetting.otherEnvironmentVariables.sorted()
                let hint = TypoSuggestion.closest(to: name, among: known).map { " (did you mean \($0)?)" } ?? ""
                throw ConfigurationError(
                    setting: name,
                    problem: "unknown environment variable\(hint); known: "
                        + (ConfigurationSetting.allCases.map(\.environmentVariable)
                        + ConfigurationSetting.otherEnvironmentVariables.sorted()).joined(separator: ", "))
            }
        }
        for setting in ConfigurationSetting.allCases {
            if let value = flags[setting] { try configuration.apply(setting, value, source: setting.flag) }
        }
        if let secret = environment[ConfigurationSetting.adminTokenVariable] {
            // Never echo the value: it is a credential.
            guard TokenSecret.isAcceptable(secret) else {
                throw ConfigurationError(
                    setting: ConfigurationSetting.adminTokenVariable,
                    problem: "must be \(TokenSecret.minimumLength)–512 characters of letters, digits and -._~+/= "
                        + "(e.g. the output of `openssl rand -hex 32`)")
            }
            let bits = TokenSecret.estimatedEntropyBits(secret)
            guard bits >= TokenSecret.minimumEntropyBits else {
                throw ConfigurationError(
                    setting: ConfigurationSetting.adminTokenVariable,
                    problem: "has about \(Int(bits)) bits of entropy; a bootstrap token needs at least "
                        + "\(Int(TokenSecret.minimumEntropyBits)): generate one with `openssl rand -hex 32` (or use "
                        + "`prelude token create` and leave the variable unset; docs/security.md)")
            }
            configuration.adminToken = RedactedSecret(secret)
        }
        if let secret = environment[ConfigurationSetting.followTokenVariable], !secret.isEmpty {
            guard TokenSecret.isAcceptable(secret) else {
                throw ConfigurationError(
                    setting: ConfigurationSetting.followTokenVariable,
                    problem: "must be \(TokenSecret.minimumLength)–512 characters of letters, digits and -._~+/= "
                        + "(a token created on the primary with `prelude token create NAME --scope read`)")
            }
            configuration.followToken = RedactedSecret(secret)
        }
        if configuration.followURL != nil, configuration.followToken == nil {
            throw ConfigurationError(
                setting: ConfigurationSetting.followTokenVariable,
                problem: "follow mode needs the replica's read token on the primary in PRELUDE_FOLLOW_TOKEN")
        }
        return configuration
    }

    /// Applies the JSON file: an object whose keys are setting names; unknown keys are errors.
    mutating func apply(fileText: String, fileName: String) throws(ConfigurationError) {
        let parsed: JSONValue
        do {
            parsed = try JSONValue(parsing: fileText)
        } catch {
            throw ConfigurationError(setting: fileName, problem: "not valid JSON (\(error))")
        }
        guard case .object(let object) = parsed else {
            throw ConfigurationError(setting: fileName, problem: "must hold a JSON object of settings")
        }
        for key in object.keys.sorted() {
            let source = "\(fileName): \(key)"
            guard let setting = ConfigurationSetting.allCases.first(where: { $0.jsonKey == key }) else {
                let known = ConfigurationSetting.allCases.map(\.jsonKey)
                let hint = TypoSuggestion.closest(to: key, among: known).map { " (did you mean \"\($0)\"?)" } ?? ""
                throw ConfigurationError(
                    setting: source, problem: "unknown key\(hint); known: \(known.joined(separator: ", "))")
            }
            let text: String
            let isNumeric = setting.definition.isNumeric
            switch (object[key]!, isNumeric) {
            case (.integer(let number), true): text = String(number)
            // A whole number written as 8080.0 or 8.08e3 is that integer, as before; others fail in apply.
            case (.double(let number), true):
                text = number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : String(number)
            case (.string(let string), false): text = string
            default:
                throw ConfigurationError(
                    setting: source, problem: "must be a JSON \(isNumeric ? "number" : "string")")
            }
            try apply(setting, text, source: source)
        }
    }

    /// Parses and checks one value with its row of the table; `source` names where it came from in the error.
    mutating func apply(_ setting: ConfigurationSetting, _ raw: String, source: String) throws(ConfigurationError) {
        do {
            try setting.definition.apply(raw, to: &self)
        } catch {
            throw ConfigurationError(setting: source, problem: error.problem)
        }
    }
}
