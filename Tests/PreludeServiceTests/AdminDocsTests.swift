import Foundation
import PreludeHTTP
import Testing

@testable import PreludeService

/// docs/admin.md cannot rot: its `sh` blocks run, in order, against a live server, and they cover every route.
@Suite struct AdminDocsTests {
    static let documentPath = ServiceFixture.repositoryRoot + "/docs/admin.md"

    /// The contents of every ```sh block, in order, with `\`-continued lines joined.
    static func shellBlocks() throws -> [String] {
        let text = try String(contentsOfFile: documentPath, encoding: .utf8)
        var blocks: [String] = []
        var current: [String]?
        for line in text.components(separatedBy: "\n") {
            if current == nil, line == "```sh" {
                current = []
            } else if current != nil, line == "```" {
                blocks.append(current!.joined(separator: "\n").replacingOccurrences(of: "\\\n", with: " "))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// (method, path without query) of every curl line.
    static func curlRequests(_ blocks: [String]) -> [(method: String, path: String)] {
        blocks.flatMap { $0.components(separatedBy: "\n") }.filter { $0.hasPrefix("curl ") }.compactMap { line in
            guard let url = line.firstMatch(of: /"\$PRELUDE_URL(\/[^"?]*)/) else { return nil }
            // A command substitution (`$(date -u -d '-7 days' …)` computing a time) is not curl's data flag.
            let own = line.replacing(/\$\([^)]*\)/, with: "")
            let method =
                own.firstMatch(of: /\s-X\s([A-Z]+)\s/).map { String($0.output.1) }
                ?? (own.contains(" -d ") || own.contains("--data") ? "POST" : "GET")
            return (method, String(url.output.1))
        }
    }

    @Test func everyAdminRouteHasACurlLine() throws {
        let server = try AdminServer()
        var router = Router()
        AdminAPI.register(
            on: &router,
            api: AdminAPI(
                repositories: server.service.repositories, store: server.service.policyStore,
                logger: Logger(level: .error)))
        let requests = Self.curlRequests(try Self.shellBlocks())
        #expect(requests.count >= router.routes.count)
        for route in router.routes {
            let pattern = "^" + route.pattern.replacing(/\{[a-z]+\}/, with: "[^/]+") + "$"
            let regex = try Regex(pattern)
            let documented = requests.contains {
                $0.method == route.method.rawValue && $0.path.wholeMatch(of: regex) != nil
            }
            #expect(documented, "docs/admin.md has no curl line for \(route.method.rawValue) \(route.pattern)")
        }
    }

    @Test func documentedCommandsRunAgainstALiveServer() throws {
        // The webhook lines register a receiver at hooks.example.com; the dispatcher is not started (an injected
        // clock), so nothing is sent anywhere.
        let server = try AdminServer(
            demoPolicyPath: ServiceFixture.repositoryRoot + "/config/demo-policy.json",
            configure: { $0.webhookAllowedHosts = try! WebhookAllowlist(parsing: "hooks.example.com") },
            webhookTiming: (.system, { 0.5 }))
        let script = "set -eu\n" + (try Self.shellBlocks()).joined(separator: "\n") + "\n"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = URL(fileURLWithPath: server.fixture.directory)
        process.environment = [
            "PATH": "/usr/local/bin:/usr/bin:/bin", "PRELUDE_URL": "http://127.0.0.1:\(server.adminPort)",
            "PRELUDE_TOKEN": AdminServer.secret,
        ]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "docs/admin.md commands failed:\n\(stderr)\n\(stdout.suffix(2000))")
        // The commands did what they say: the token was created and revoked, the app created and deleted, the
        // feature patched, restored, a feature deleted, everything rolled back to revision 1, two rollouts run, two
        // rollout templates saved and deleted, and
        // six change requests taken through every transition.
        let actions = try server.service.database.read { db in
            try db.query("SELECT action FROM audit_log ORDER BY id").map { try $0.get("action", as: String.self) }
        }
        #expect(
            actions == [
                "app.seed", "token.bootstrap", "token.create", "token.revoke", "app.create", "app.settings",
                "app.delete", "feature.patch", "feature.replace", "feature.delete", "experiment.patch",
                "experiment.stop", "experiment.start", "experiment.create", "experiment.delete",
                "experiment.conclude", "policy.rollback", "rollout.step", "rollout.abort", "rollout.step",
                "rollout.complete",
                // Two rollout templates saved and deleted (simulations audit nothing).
                "rollout.templateSaved", "rollout.templateSaved", "rollout.templateDeleted", "rollout.templateDeleted",
                // A reviewer's token; change requests 1 and 2 applied, 3 and 4 rejected, 5 and 6 cancelled.
                "token.create",
                "changeRequest.create", "changeRequest.edit", "changeRequest.submit", "changeRequest.approve",
                "changeRequest.schedule", "changeRequest.schedule", "changeRequest.apply",
                "changeRequest.create", "changeRequest.edit", "changeRequest.submit", "changeRequest.approve",
                "changeRequest.rebase", "changeRequest.apply",
                "changeRequest.create", "changeRequest.rebase", "changeRequest.reject",
                "changeRequest.create", "changeRequest.reject",
                "changeRequest.create", "changeRequest.cancel",
                "changeRequest.create", "changeRequest.cancel",
                "webhook.create", "feature.patch", "webhook.redeliver", "webhook.update", "webhook.delete",
                "environment.create", "environment.settings", "environment.settings",
                "feature.patch", "feature.replace", "feature.delete", "experiment.patch", "experiment.stop",
                "experiment.start", "experiment.create", "experiment.delete", "experiment.conclude", "policy.replace",
                "feature.patch", "promotion", "policy.rollback", "rollout.step", "rollout.complete", "rollout.step",
                "rollout.abort",
            ])
        // The environments section wrote to staging, except the promotion, which wrote to production.
        let environments = try server.service.database.read { db in
            try db.query("SELECT environment FROM audit_log ORDER BY id").map {
                try $0.get("environment", as: String?.self) ?? "-"
            }
        }
        #expect(
            environments.suffix(20)
                == Array(repeating: "staging", count: 14) + ["production"] + Array(repeating: "staging", count: 5))
        // Staging's completed rollout changed staging's policy, not production's.
        let staging = try #require(server.service.policyStore.snapshot(app: "demo", environment: "staging"))
        let production = try #require(server.service.policyStore.snapshot(app: "demo"))
        #expect(String(decoding: staging.canonicalBytes, as: UTF8.self).contains("Talk to staging"))
        #expect(!String(decoding: production.canonicalBytes, as: UTF8.self).contains("Talk to staging"))
        #expect(stdout.contains("\"valid\": true"))
        #expect(!stdout.contains(AdminServer.secret) && !stderr.contains(AdminServer.secret))
    }
}
