import PreludeCore
import PreludeStorage
import PreludeStore

/// What this build will do with a database an earlier (or later) build wrote: its pending migrations and every
/// stored revision read as this build reads it (``StoredPolicyReader``). `prelude migrate --check` prints it before
/// an upgrade; nothing is written.
package struct UpgradeCheck: Sendable {
    /// One stored revision.
    package struct Revision: Sendable {
        /// The app.
        package let app: String
        /// The environment whose chain holds it.
        package let environment: String
        /// The revision number.
        package let number: Int
        /// Whether it is its environment's live revision.
        package let isLive: Bool
        /// How this build reads it.
        package let reading: StoredPolicyReader.Reading

        /// One line: `demo r3 (production, live): served as written`, `demo r2 (staging): served with 2 findings …`,
        /// `… cannot be served: …`: an app's environments each have a live revision, so each line names its own.
        package var line: String {
            let head = "\(app) r\(number) (\(environment)\(isLive ? ", live" : ""))"
            if reading.document == nil { return "\(head): cannot be served: \(reading.refusal ?? "")" }
            if reading.findings.isEmpty { return "\(head): served as written" }
            let count = reading.findings.count
            var line = "\(head): served with \(count) \(count == 1 ? "finding" : "findings")"
            if !reading.fallbacks.isEmpty {
                line += ", fallback text at " + reading.fallbacks.map(\.description).joined(separator: ", ")
            }
            return line + "\n" + reading.findings.map { "    \($0.description)" }.joined(separator: "\n")
        }
    }

    /// Migrations this build would apply, by name.
    package let pendingMigrations: [String]
    /// Every stored revision, by app then number.
    package let revisions: [Revision]

    /// Whether every app's live revision is served by this build.
    package var servesEveryLiveRevision: Bool {
        revisions.allSatisfy { !$0.isLive || $0.reading.document != nil }
    }

    /// Reads the database of `repositories` (not migrated by this) against `migrator`.
    package init(repositories: Store, migrator: Migrator) throws {
        pendingMigrations = try migrator.pendingMigrations(repositories.database).map(\.name)
        revisions = try repositories.policies.allRevisions().map { stored in
            Revision(
                app: stored.app, environment: stored.environment, number: stored.number, isLive: stored.isLive,
                reading: StoredPolicyReader.read(text: stored.document))
        }
    }

    /// The report `prelude migrate --check` prints.
    package var report: String {
        var lines: [String] = []
        if pendingMigrations.isEmpty {
            lines.append("Migrations: none pending.")
        } else {
            lines.append(
                "Migrations: \(pendingMigrations.count) pending (\(pendingMigrations.joined(separator: ", "))); "
                    + "serve or migrate applies them.")
        }
        let count = revisions.count
        lines.append("Stored revisions: \(count) \(count == 1 ? "revision" : "revisions").")
        lines += revisions.map(\.line)
        lines.append(
            servesEveryLiveRevision
                ? "This build serves every live revision."
                : "This build cannot serve every live revision: do not upgrade before repairing them "
                    + "(docs/operations.md, \"Upgrading\").")
        return lines.joined(separator: "\n") + "\n"
    }
}
