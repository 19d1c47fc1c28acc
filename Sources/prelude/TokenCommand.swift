import ArgumentParser
import PreludeCore
import PreludeService
import PreludeStore

#if canImport(FoundationEssentials)
    import Dispatch
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

/// `prelude token create|list|revoke`: admin tokens in the database `serve` uses (same settings and flags).
struct TokenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Create, list and revoke admin API tokens.",
        discussion: """
            Tokens authenticate /v1/admin/** (Authorization: Bearer <token>). Scope 'read' allows GET and dry runs; \
            'replica' adds forwarding client events (a read replica's token, docs/security.md); 'write' allows \
            every admin request. Only a SHA-256 hash of each token is stored: the secret is printed once, \
            by `create`. Uses the same database settings as `serve` (--database, PRELUDE_DATABASE, config file); \
            the database must exist (`serve` or `migrate` creates it). Changes take effect at once, also on a running server.
            """,
        subcommands: [TokenCreateCommand.self, TokenListCommand.self, TokenRevokeCommand.self]
    )
}

/// `prelude token create --name NAME --scope read|replica|write [--app APP]… [--environment ENV]… [--approve]
/// [--bypass]`.
struct TokenCreateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Create a token and print its secret (shown only this once) on standard output.")

    @Option(help: "A unique name: 1–64 letters, digits, '.', '-', '_'. Recorded as the author of changes.")
    var name: String

    @Option(help: "read (GET only), replica (read + forward events: a read replica's token) or write (everything).")
    var scope: String

    @Option(name: .customLong("app"), help: "An app the token may touch (repeat for several; default: every app).")
    var apps: [String] = []

    @Option(
        name: .customLong("environment"),
        help: "An environment the token may touch (repeat for several; default: every environment).")
    var environments: [String] = []

    @Flag(help: "The token may approve change requests.")
    var approve = false

    @Flag(help: "The token may apply changes without their required approvals (needs --scope write; audited).")
    var bypass = false

    @Flag(
        help: """
            Grant --app/--environment names that do not exist yet (an app or environment created later); without it \
            such a name is refused with the closest existing one.
            """)
    var allowMissing = false

    @OptionGroup var options: DatabaseOptions

    func validate() throws {
        guard TokenScope(rawValue: scope) != nil else {
            throw ValidationError("--scope must be 'read', 'replica' or 'write', not '\(scope)'")
        }
        for environment in environments where !EnvironmentName.isValid(environment) {
            throw ValidationError(
                "--environment '\(environment)' is not an environment name (\(EnvironmentName.rule))")
        }
        if bypass, scope != "write" { throw ValidationError("--bypass needs --scope write") }
    }

    func run() throws {
        try TokenDatabase.with(options) { tokens, policies in
            // A typo (`--app demoo`) would otherwise create a token that may touch nothing, silently.
            if !allowMissing,
                let unknown = try TokenGrantReferences.check(
                    apps: apps.isEmpty ? nil : apps, environments: environments.isEmpty ? nil : environments,
                    repository: policies)
            {
                throw TokenGrantRefusal(references: unknown)
            }
            let grant = TokenGrant(
                apps: apps.isEmpty ? nil : apps, environments: environments.isEmpty ? nil : environments,
                approve: approve, bypass: bypass)
            let (token, secret) = try tokens.create(
                name: name, scope: TokenScope(rawValue: scope)!, grant: grant, actor: "cli", now: TokenDatabase.now)
            // The secret alone on stdout, so `TOKEN=$(prelude token create ...)` works; the note on stderr.
            print(secret)
            StandardIO.error(
                "Created \(token.scope.rawValue) token '\(token.name)'. Store the secret now: it cannot be shown again.\n"
            )
        }
    }
}

/// `prelude token list [--json]`.
struct TokenListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List tokens (names, scopes, times; never secrets).")

    @Flag(help: "Print JSON instead of a table: {\"tokens\": [...]}, as GET /v1/admin/tokens answers.")
    var json = false

    @OptionGroup var options: DatabaseOptions

    func run() throws {
        try TokenDatabase.with(options) { tokens in
            let list = try tokens.list()
            if json {
                // The shape of GET /v1/admin/tokens, so scripts can use either.
                print(
                    JSONValue.object(JSONObject([("tokens", .array(list.map(\.jsonValue)))])).serialized(.pretty),
                    terminator: "")
                return
            }
            guard !list.isEmpty else {
                print("No tokens. Create one with: prelude token create --name NAME --scope write")
                return
            }
            let rows =
                [["NAME", "SCOPE", "GRANT", "CREATED", "LAST USED", "STATUS"]]
                + list.map { token in
                    [
                        token.name, token.scope.rawValue, Self.grant(token.grant), AdminTime.iso8601(token.createdAt),
                        token.lastUsedAt.map(AdminTime.iso8601) ?? "never",
                        token.revokedAt.map { "revoked \(AdminTime.iso8601($0))" } ?? "active",
                    ]
                }
            let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
            for row in rows {
                let line = row.enumerated().map { column, cell in
                    column == row.count - 1
                        ? cell : cell + String(repeating: " ", count: max(0, widths[column] - cell.count))
                }
                print(line.joined(separator: "  "))
            }
        }
    }
}

extension TokenListCommand {
    /// The GRANT column: the apps and environments the token may touch, then its capabilities (`approve`,
    /// `bypass`), e.g. `apps demo; environments staging; approve`.
    static func grant(_ grant: TokenGrant) -> String {
        grant.summary + (grant.approve ? "; approve" : "") + (grant.bypass ? "; bypass" : "")
    }
}

/// `prelude token revoke NAME`.
struct TokenRevokeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke", abstract: "Revoke a token; it stops working at once, also on a running server.")

    @Argument(help: "The token's name.")
    var name: String

    @OptionGroup var options: DatabaseOptions

    func run() throws {
        try TokenDatabase.with(options) { tokens in
            let token = try tokens.revoke(name: name, actor: "cli", now: TokenDatabase.now)
            print("Revoked \(token.scope.rawValue) token '\(token.name)'.")
        }
    }
}

/// Opens (and migrates) the configured database for a token command; failures exit 1 (78 for settings).
enum TokenDatabase {
    static var now: Int64 { ServiceClock.system.milliseconds }

    static func with(_ options: DatabaseOptions, _ body: (TokenStore) throws -> Void) throws {
        try with(options) { tokens, _ in try body(tokens) }
    }

    /// The token store and the apps (to check the names a grant gives) of the database `options` name.
    static func with(_ options: DatabaseOptions, _ body: (TokenStore, PolicyRepository) throws -> Void) throws {
        let store = try options.openMigratedStore().store
        defer { store.database.close() }
        do {
            try body(store.tokens, store.policies)
        } catch {
            throw Failure.exit(error, code: Failure.code(for: error))
        }
    }
}

/// `prelude token create` naming an app or environment that does not exist, without `--allow-missing`.
struct TokenGrantRefusal: Error, CustomStringConvertible {
    let references: TokenGrantReferences

    var description: String {
        let apps = references.apps.map { "--app: \($0.description(kind: "app", known: references.knownApps))" }
        let environments = references.environments.map {
            "--environment: \($0.description(kind: "environment", known: references.knownEnvironments))"
        }
        return (apps + environments).joined(separator: "; ")
            + ". No token was created; --allow-missing grants names for apps or environments created later."
    }
}
