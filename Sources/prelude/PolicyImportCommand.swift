import ArgumentParser
import PreludeCore
import PreludeHTTP
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

/// `prelude policy import FILE [--app APP] [--message TEXT] [--create] [--if-match ETAG] [--dry-run] [--json]`:
/// a policy file becomes the live revision of an app in the database `serve` uses, through the same policy store
/// as the admin API (one transaction for the revision, the live pointer and the audit row).
struct PolicyImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Make a policy file the live revision of an app in the database.",
        discussion: """
            Validates the file (every problem printed as `pointer: code: message`, nothing written), checks that \
            its app.id is --app (without --app, the app is the document's), then commits it as a new revision by \
            `cli` with a `policy.import` audit record (`app.create` with --create for a new app). A file equal to \
            the live policy creates no revision. --if-match ETAG refuses the import unless ETAG names the live \
            revision (as If-Match does on the admin API); --dry-run checks everything and prints the changes \
            without writing. Uses the same database settings as `serve`; the database must exist. A server running \
            on it serves the new revision within a second (docs/operations.md). Where production requires \
            approvals, the import is refused as the admin API refuses a direct write (409 approval-required): \
            propose the file with `prelude changes create FILE --app APP` instead. \
            Exit status: 0 imported or unchanged, 1 refused, 2 unreadable file, 78 bad settings.
            """
    )

    @Argument(help: "The policy document (JSON). Use - for standard input.")
    var file: String

    @Option(help: "The app to import into; must equal the document's app.id. [default: the document's app.id]")
    var app: String?

    @Option(help: "A note stored with the revision (at most 500 characters).")
    var message: String?

    @Flag(help: "Create the app (as revision 1) when it does not exist.")
    var create = false

    @Option(
        name: .customLong("if-match"),
        help: ArgumentHelp("Import only if this ETag names the live revision (or *).", valueName: "etag"))
    var ifMatch: String?

    @Flag(name: .customLong("dry-run"), help: "Validate and print the changes; write nothing.")
    var dryRun = false

    @Flag(help: "Print the result as JSON: {app, revision, etag, changed, created, dryRun, changes}.")
    var json = false

    @OptionGroup var options: DatabaseOptions

    func validate() throws {
        if let message, message.count > 500 { throw ValidationError("--message is longer than 500 characters") }
        if let ifMatch, ifMatch.trimmingWhitespace().isEmpty {
            throw ValidationError("--if-match needs an ETag, e.g. --if-match '\"r3-…\"' or '*'")
        }
    }

    func run() throws {
        let bytes: [UInt8]
        do {
            bytes = try PolicyFile.read(file)
        } catch {
            StandardIO.error("prelude: error: \(error)\n")
            throw ExitCode(2)
        }
        let validation = PolicyValidator.validate(bytes: bytes)
        guard let document = validation.document else {
            for problem in validation.problems { Self.printError(problem.description) }
            let count = validation.problems.count
            throw Self.refuse("\(file): \(count) problem\(count == 1 ? "" : "s"); nothing was imported")
        }
        let app = app ?? document.app.id
        guard document.app.id == app else {
            Self.printError("/app/id: app.mismatch: app.id is \"\(document.app.id)\", not \"\(app)\" (--app)")
            throw Self.refuse(
                "\(file) is a policy for app \"\(document.app.id)\", not \"\(app)\"; nothing was imported")
        }

        let (configuration, repositories) = try options.openMigratedStore()
        defer { repositories.database.close() }
        do {
            let store = PolicyStore(policies: repositories.policies, resolvedCacheCapacity: 1)
            // Only the one app: its live revision as the database holds it now.
            try store.reload(app: app)
            let outcome = try importDocument(
                document, app: app, store: store, policies: repositories.policies, databasePath: configuration.database)
            report(outcome)
        } catch let error as ExitCode {
            throw error
        } catch let error as PolicyStoreError {
            throw Self.refuse(Self.describe(error, ifMatch: ifMatch))
        } catch {
            throw Failure.exit(error, code: 1)
        }
    }

    /// ``PublishChecks``: prints every lint finding (`severity rule pointer: message`, as `prelude policy lint`)
    /// on standard error and returns them; refuses (exit 1) a document over 1 MiB or, when the app is in strict lint
    /// mode, one with lint errors, as the admin API does with 413 and 422.
    static func publishChecks(_ document: PolicyDocument, app: String?, policies: PolicyRepository) throws
        -> [LintFinding]
    {
        let strict =
            try app.flatMap {
                try policies.lintStrict(app: $0, environment: EnvironmentName.production)
            } ?? false
        do {
            let findings = try PublishChecks.check(
                document, canonicalSize: document.jsonValue.serializedBytes().count, lintStrict: strict)
            for finding in findings {
                printError(finding.description)
            }
            return findings
        } catch {
            for problem in error.errors { printError("\(problem.pointer): \(problem.code): \(problem.detail)") }
            throw refuse(error.detail ?? "refused; nothing was imported")
        }
    }

    /// What an import did (or, with --dry-run, would do).
    struct Outcome {
        var app: String
        var revision: Int
        var etag: String?
        var changed: Bool
        var created: Bool
        var changes: [JSONDiff.Change]
    }

    private func importDocument(
        _ document: PolicyDocument, app: String, store: PolicyStore, policies: PolicyRepository, databasePath: String
    ) throws -> Outcome {
        let live = store.snapshot(app: app)
        let broken = store.unavailability(app: app)
        guard live != nil || broken != nil else {
            guard create else {
                throw Self.refuse(
                    "no app \"\(app)\" in \(databasePath); pass --create to create it")
            }
            if ifMatch != nil {
                throw Self.refuse("--if-match: app \"\(app)\" does not exist, so it has no ETag to match")
            }
            if dryRun {
                return Outcome(app: app, revision: 1, etag: nil, changed: true, created: true, changes: [])
            }
            let findings = try Self.publishChecks(document, app: nil, policies: policies)
            var detail = Self.sourceDetail(file: file, message: message)
            detail["features"] = .array(document.orderedFeatures.map { .string($0.feature.rawValue) })
            if !findings.isEmpty { detail["lint"] = .array(findings.map(\.jsonValue)) }
            let snapshot = try store.createApp(
                app: app, document: document, author: "cli", message: message, auditDetail: .object(detail))
            return Outcome(
                app: app, revision: snapshot.revision, etag: snapshot.etag.headerValue, changed: true, created: true,
                changes: [])
        }

        // The admin API's rule for direct writes (AdminAPI.approvalCheck): an environment that requires approvals
        // takes changes only as change requests, before anything else is checked. The command line has no token, so
        // no bypass: it proposes the file with `prelude changes create` instead.
        let rules = try EnvironmentRules.stored(policies)(app, EnvironmentName.production)
        if let rules, rules.approval.requiresChangeRequest {
            let problem = ChangeRequestProblem.approvalRequired(
                app: app, environment: EnvironmentName.production, required: rules.approval.requiredApprovals)
            throw Self.refuse(
                "environment \"\(EnvironmentName.production)\" of app \"\(app)\" requires "
                    + "\(rules.approval.requiredApprovals) approval\(rules.approval.requiredApprovals == 1 ? "" : "s") "
                    + "for every change: propose the file with `prelude changes create \(file) --app \(app)` (or POST "
                    + "/v1/admin/apps/\(app)/environments/\(EnvironmentName.production)/change-requests); nothing was "
                    + "imported (\(problem.type))")
        }

        // The diff compares canonical forms, so layout and spelled-out defaults do not count as changes.
        let changes = JSONDiff.changes(
            from: try live.map { $0.document.jsonValue } ?? Self.storedLiveJSON(app, policies: policies),
            to: document.jsonValue)
        if let ifMatch {
            // The same precondition the store applies on commit, checked up front so that --dry-run and an
            // unchanged document report a stale ETag too (as the admin API does).
            let condition = RevisionPrecondition(ifMatch: ifMatch)
            let matches = condition.admits(live?.entityTags)
            guard matches else { throw PolicyStoreError.stale(current: live) }
        }
        if changes.isEmpty, let live {
            return Outcome(
                app: app, revision: live.revision, etag: live.etag.headerValue, changed: false, created: false,
                changes: [])
        }
        if dryRun {
            let next = try policies.nextRevisionNumber(app: app)
            return Outcome(
                app: app, revision: next, etag: nil, changed: true, created: false, changes: changes)
        }
        // The admin API's checks (size, strict lint), so a file cannot make live what a PUT would refuse.
        let findings = try Self.publishChecks(document, app: app, policies: policies)
        var detail = JSONDiff.summary(changes).objectValue ?? JSONObject()
        for (key, value) in Self.sourceDetail(file: file, message: message) { detail[key] = value }
        if !findings.isEmpty { detail["lint"] = .array(findings.map(\.jsonValue)) }
        let snapshot = try store.commit(
            app: app, document: document, author: "cli", action: "policy.import", message: message,
            precondition: ifMatch.map(RevisionPrecondition.init(ifMatch:)), auditDetail: .object(detail))
        return Outcome(
            app: app, revision: snapshot.revision, etag: snapshot.etag.headerValue, changed: true, created: false,
            changes: changes)
    }

    private func report(_ outcome: Outcome) {
        if json {
            var object = JSONObject()
            object["app"] = .string(outcome.app)
            object["revision"] = .integer(outcome.revision)
            object["etag"] = outcome.etag.map(JSONValue.string) ?? .null
            object["changed"] = .bool(outcome.changed)
            object["created"] = .bool(outcome.created)
            object["dryRun"] = .bool(dryRun)
            object["changes"] = JSONDiff.jsonValue(outcome.changes)
            print(JSONValue.object(object).serialized(.pretty), terminator: "")
            return
        }
        let count = outcome.changes.count
        let changeCount = "\(count) change\(count == 1 ? "" : "s")"
        switch (outcome.created, outcome.changed, dryRun) {
        case (true, _, true):
            print("Dry run: would create app \"\(outcome.app)\" with \(file) as revision 1. Nothing was written.")
        case (true, _, false):
            print("Created app \"\(outcome.app)\" from \(file): revision 1, ETag \(outcome.etag ?? "")")
        case (false, false, _):
            print(
                "Unchanged: revision \(outcome.revision) of app \"\(outcome.app)\" already is this policy; "
                    + "no revision created.")
        case (false, true, true):
            print(
                "Dry run: \(file) would become revision \(outcome.revision) of app \"\(outcome.app)\" (\(changeCount)):"
            )
            for change in outcome.changes { print("  " + Self.describe(change)) }
            print("Nothing was written.")
        case (false, true, false):
            print(
                "Imported \(file) into app \"\(outcome.app)\": revision \(outcome.revision), ETag \(outcome.etag ?? "") "
                    + "(\(changeCount)):")
            for change in outcome.changes { print("  " + Self.describe(change)) }
        }
        if outcome.changed, !dryRun {
            Self.printError("note: a server running on this database serves the new revision within a second.")
        }
    }

    /// `op pointer: from → to`, values compact and cut at 60 characters.
    static func describe(_ change: JSONDiff.Change) -> String {
        func show(_ value: JSONValue?) -> String {
            guard let value else { return "" }
            let text = value.serialized()
            return text.count > 60 ? String(text.prefix(59)) + "…" : text
        }
        let pointer = change.pointer.tokens.isEmpty ? "/" : change.pointer.description
        switch change.op {
        case .add: return "add \(pointer): \(show(change.to))"
        case .remove: return "remove \(pointer): \(show(change.from))"
        case .replace: return "replace \(pointer): \(show(change.from)) → \(show(change.to))"
        }
    }

    /// A refusal from the policy store, worded for the command line from the problem the admin API answers with.
    static func describe(_ error: PolicyStoreError, ifMatch: String?) -> String {
        let problem = PolicyStoreProblem.problem(for: error)
        if problem.status == .preconditionFailed {
            let current = problem.headers["ETag"].map { "the live revision's ETag is \($0)" }
            return "--if-match \(ifMatch ?? "") does not name the live revision; "
                + (current ?? "the app has no servable live revision (--if-match '*' replaces it)")
                + "; nothing was imported"
        }
        var lines = problem.errors.map { "\($0.pointer): \($0.code): \($0.detail)" }
        lines.append((problem.detail ?? problem.title) + "; nothing was imported")
        return lines.joined(separator: "\n")
    }

    /// `source` (the file, or `stdin`) and the message, for the audit record.
    static func sourceDetail(file: String, message: String?) -> JSONObject {
        var detail = JSONObject()
        detail["source"] = .string(file == "-" ? "stdin" : file)
        if let message { detail["message"] = .string(message) }
        return detail
    }

    /// The stored text of an app's live revision that this build cannot serve, parsed if it is JSON at all.
    static func storedLiveJSON(_ app: String, policies: PolicyRepository) throws -> JSONValue {
        let text = try policies.liveDocument(
            app: app, environment: EnvironmentName.production)
        return text.flatMap { try? JSONValue(parsing: Array($0.utf8)) } ?? .null
    }

    static func printError(_ line: String) {
        StandardIO.error("\(line)\n")
    }

    /// Prints `prelude: error: …` and returns exit status 1.
    static func refuse(_ message: String) -> ExitCode {
        printError("prelude: error: \(message)")
        return ExitCode(1)
    }
}
