import ArgumentParser
import PreludeCore
import PreludeHTTP
import PreludeService
import PreludeStore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `prelude changes list|show|create|submit|schedule|apply|rebase|cancel`: change requests in the database `serve`
/// uses, through the same ``ChangeRequests`` as the admin API, so the same rules refuse the same things.
struct ChangesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "changes",
        abstract: "Propose, list, schedule and apply change requests (docs/change-management.md).",
        discussion: """
            The admin API's change requests, for a shell on the primary: the same state machine, checks, audit \
            records and refusals (each printed as `prelude: error: … (urn:prelude:problem:…)`, exit 1). The author \
            and actor is `cli`. There is no `approve` or `reject` here: an approval names the token that gave it, \
            so it is given through the admin API with a token allowed to approve. `apply` needs the approvals the \
            environment requires, as the API's does. Uses the same database settings as `serve`; the database must \
            exist. A server running on it serves an applied request within a second and its scheduler sees a \
            schedule within a second. Exit status: 0 done, 1 refused, 2 unreadable file, 78 bad settings.
            """,
        subcommands: [
            ChangesListCommand.self, ChangesShowCommand.self, ChangesCreateCommand.self, ChangesSubmitCommand.self,
            ChangesScheduleCommand.self, ChangesApplyCommand.self, ChangesRebaseCommand.self,
            ChangesCancelCommand.self,
        ]
    )
}

/// Which environment of which app a `prelude changes` command addresses.
struct ChangeRequestAddress: ParsableArguments {
    @Option(help: "The app id.")
    var app: String

    @Option(help: "The environment. [default: production]")
    var environment: String = EnvironmentRules.production

    @Flag(help: "Print the request as JSON, as the admin API answers it.")
    var json = false
}

/// The shared prologue and epilogue of every `prelude changes` command.
enum ChangeRequestCommandLine {
    /// The command line's actor: it has no token.
    static let actor = ChangeRequests.Actor(name: "cli", tokenID: nil)

    /// Opens the migrated database, loads the addressed environment's live revision, runs `body` with change management over it, and
    /// turns a refusal into its message on standard error and exit 1.
    static func with<Result>(
        _ options: DatabaseOptions, _ address: ChangeRequestAddress, _ body: (ChangeRequests) throws -> Result
    ) throws -> Result {
        let (configuration, repositories) = try options.openMigratedStore()
        defer { repositories.database.close() }
        do {
            let store = PolicyStore(policies: repositories.policies, resolvedCacheCapacity: 1)
            try store.reload(app: address.app, environment: address.environment)
            let changes = ChangeRequests(
                repositories: repositories, store: store, logger: DatabaseOptions.commandLogger(configuration))
            return try body(changes)
        } catch let exit as ExitCode {
            throw exit
        } catch let problem as ProblemDetails {
            throw refuse(problem)
        } catch {
            throw Failure.exit(error, code: 1)
        }
    }

    /// Prints `problem` (each field problem as `pointer: code: detail`, then the detail and the type) on standard
    /// error; exit 1.
    static func refuse(_ problem: ProblemDetails) -> ExitCode {
        for field in problem.errors {
            StandardIO.error("\(field.pointer.isEmpty ? "/" : field.pointer): \(field.code): \(field.detail)\n")
        }
        StandardIO.error("prelude: error: \(problem.detail ?? problem.title) (\(problem.type))\n")
        return ExitCode(1)
    }

    /// Prints `record` after a transition: as JSON (with `extra`), or `line`.
    static func report(
        _ record: ChangeRequestRecord, changes: ChangeRequests, json: Bool, line: String,
        extra: JSONObject = JSONObject()
    ) throws {
        if json {
            // As the API answers a transition: the state and links; `show --json` prints the whole request.
            var object = try ChangeRequestView.state(record, changes: changes)
            for (key, value) in extra { object[key] = value }
            print(JSONValue.object(object).serialized(.pretty), terminator: "")
        } else {
            print(line)
        }
    }

    /// `3 of demo/production`.
    static func name(_ record: ChangeRequestRecord) -> String {
        "Change request \(record.id) of \(record.app)/\(record.environment)"
    }
}

/// `prelude changes list --app APP [--environment ENV] [--state STATE] [--limit N]`.
struct ChangesListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List an environment's change requests, newest first.")

    @OptionGroup var address: ChangeRequestAddress

    @Option(help: "Only requests in this state (draft, review, approved, applied, rejected, cancelled, stale).")
    var state: String?

    @Option(help: "At most this many (1–200). [default: 50]")
    var limit: Int = 50

    @OptionGroup var options: DatabaseOptions

    func validate() throws {
        if let state, ChangeRequestState(rawValue: state) == nil {
            let states = ChangeRequestState.allCases.map(\.rawValue).joined(separator: ", ")
            throw ValidationError("--state must be one of \(states), not '\(state)'")
        }
        guard (1...200).contains(limit) else { throw ValidationError("--limit must be 1–200, not \(limit)") }
    }

    func run() throws {
        try ChangeRequestCommandLine.with(options, address) { changes in
            _ = try changes.rules(app: address.app, environment: address.environment)
            let rows = try changes.repository.list(
                app: address.app, environment: address.environment,
                states: state.flatMap(ChangeRequestState.init(rawValue:)).map { [$0] } ?? [], before: nil,
                limit: limit)
            let live = changes.liveRevision(app: address.app, environment: address.environment)
            if address.json {
                let object: JSONValue = [
                    "changeRequests": .array(rows.map { ChangeRequestView.summary($0, live: live) })
                ]
                print(object.serialized(.pretty), terminator: "")
                return
            }
            guard !rows.isEmpty else {
                print("No change requests in \(address.app)/\(address.environment).")
                return
            }
            let table =
                [["ID", "STATE", "BASE", "AUTHOR", "APPROVALS", "SCHEDULED", "MESSAGE"]]
                + rows.map { record in
                    [
                        "\(record.id)", record.state.rawValue,
                        record.baseRevision.map { "\($0)\($0 == live ? " (live)" : "")" } ?? "none",
                        record.author, "\(record.approvals.count)",
                        record.scheduledAt.map(AdminTime.iso8601) ?? "-", record.message ?? "",
                    ]
                }
            let widths = (0..<7).map { column in table.map { $0[column].count }.max() ?? 0 }
            for row in table {
                let cells = row.enumerated().map { column, cell in
                    column == row.count - 1
                        ? cell : cell + String(repeating: " ", count: max(0, widths[column] - cell.count))
                }
                print(cells.joined(separator: "  "))
            }
        }
    }
}

/// `prelude changes show ID --app APP [--environment ENV] [--json]`.
struct ChangesShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show a change request: its state, approvals, findings and diff.")

    @Argument(help: "The change request's id.")
    var id: String

    @OptionGroup var address: ChangeRequestAddress

    @OptionGroup var options: DatabaseOptions

    func run() throws {
        try ChangeRequestCommandLine.with(options, address) { changes in
            let record = try changes.record(app: address.app, environment: address.environment, id: id)
            if address.json {
                let object = try ChangeRequestView.detail(record, changes: changes)
                print(JSONValue.object(object).serialized(.pretty), terminator: "")
                return
            }
            let rules = try changes.rules(app: record.app, environment: record.environment)
            let live = changes.liveRevision(app: record.app, environment: record.environment)
            let counted = rules.approval.counted(record.approvals.map(\.approver), author: record.author)
            let etag = ChangeRequestView.etag(record)
            print("\(ChangeRequestCommandLine.name(record)): \(record.state.rawValue) (ETag \(etag))")
            print("Author: \(record.author)\(record.message.map { " — \($0)" } ?? "")")
            let base = record.baseRevision.map(String.init) ?? "none"
            let liveText = record.baseRevision == live ? " (live)" : ", live is \(live.map(String.init) ?? "none")"
            print("Base revision: \(base)\(liveText)")
            let approvers = record.approvals.map(\.approver).joined(separator: ", ")
            print(
                "Approvals: \(counted.count) of \(rules.approval.requiredApprovals) required"
                    + (approvers.isEmpty ? "" : " (\(approvers))"))
            if let at = record.scheduledAt { print("Scheduled: \(AdminTime.iso8601(at))") }
            if let revision = record.appliedRevision { print("Applied as revision \(revision)") }
            if let closedBy = record.closedBy {
                print("Closed by \(closedBy)\(record.reason.map { ": \($0)" } ?? "")")
            }
            if record.kind == .policy {
                let validation = PolicyValidator.validate(text: record.document)
                for problem in validation.problems { print("problem \(problem.description)") }
            } else {
                // A settings or rollout request carries its proposal, not a policy document (docs/change-management.md).
                print("Kind: \(record.kind.rawValue), proposing \(record.document)")
            }
            if let lint = try? JSONValue(parsing: record.findings), let findings = lint.arrayValue {
                for finding in findings {
                    let object = finding.objectValue ?? JSONObject()
                    let text = ["severity", "ruleId", "pointer", "message"].map { object[$0]?.stringValue ?? "" }
                    print("lint \(text[0]) \(text[1]) \(text[2]): \(text[3])")
                }
            }
            let diff = try changes.diff(record)
            print("Changes (\(diff.count)):")
            for change in diff { print("  " + PolicyImportCommand.describe(change)) }
        }
    }
}

/// `prelude changes create FILE --app APP [--environment ENV] [--patch] [--message TEXT] [--draft] [--json]`.
struct ChangesCreateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Propose a policy document (or, with --patch, a JSON Merge Patch of the live one).",
        discussion: """
            Checked as the admin API checks a proposal: every validation problem printed as \
            `pointer: code: message` and nothing stored. The request starts in review (approved at once where the \
            environment requires no approval), or as a draft with --draft. Prints the new request's id.
            """)

    @Argument(help: "The proposed policy document, or a merge patch with --patch (JSON). Use - for standard input.")
    var file: String

    @OptionGroup var address: ChangeRequestAddress

    @Flag(help: "FILE is a JSON Merge Patch (RFC 7396) of the live document, re-applied by a rebase.")
    var patch = false

    @Option(help: "Why (at most 500 characters).")
    var message: String?

    @Flag(help: "Keep it a draft; `submit` sends it to review.")
    var draft = false

    @OptionGroup var options: DatabaseOptions

    func run() throws {
        let bytes: [UInt8]
        do {
            bytes = try PolicyFile.read(file)
        } catch {
            StandardIO.error("prelude: error: \(error)\n")
            throw ExitCode(2)
        }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: bytes)
        } catch {
            throw ChangeRequestCommandLine.refuse(
                ProblemDetails(
                    status: .badRequest, type: "urn:prelude:problem:malformed-json", title: "Malformed JSON",
                    detail: "\(file) is not JSON: \(error)"))
        }
        try ChangeRequestCommandLine.with(options, address) { changes in
            let text = try ChangeRequests.text(message, name: "message")
            let record = try changes.create(
                app: address.app, environment: address.environment,
                proposal: patch ? .patch(value) : .document(value), message: text, submit: !draft,
                by: ChangeRequestCommandLine.actor)
            try ChangeRequestCommandLine.report(
                record, changes: changes, json: address.json,
                line: "\(ChangeRequestCommandLine.name(record)) created: \(record.state.rawValue), "
                    + "based on revision \(record.baseRevision.map(String.init) ?? "none").")
        }
    }
}

/// `prelude changes submit ID --app APP`.
struct ChangesSubmitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "submit", abstract: "Send a draft to review (approved at once where none is required).")

    @Argument(help: "The change request's id.")
    var id: String

    @OptionGroup var address: ChangeRequestAddress

    @OptionGroup var options: DatabaseOptions

    func run() throws {
        try ChangeRequestCommandLine.with(options, address) { changes in
            let record = try changes.record(app: address.app, environment: address.environment, id: id)
            let next = try changes.submit(record, by: ChangeRequestCommandLine.actor)
            try ChangeRequestCommandLine.report(
                next, changes: changes, json: address.json,
                line: "\(ChangeRequestCommandLine.name(next)) is now \(next.state.rawValue).")
        }
    }
}

/// `prelude changes schedule ID --app APP (--at INSTANT | --clear)`.
struct ChangesScheduleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schedule",
        abstract: "Schedule an approved request for an instant (the primary applies it then), or --clear it.")

    @Argument(help: "The change request's id.")
    var id: String

    @Option(help: "An RFC 3339 date-time with seconds and a zone (Z or ±hh:mm), in the future: 2026-11-26T09:00:00Z.")
    var at: String?

    @Flag(help: "Remove the schedule.")
    var clear = false

    @OptionGroup var address: ChangeRequestAddress

    @OptionGroup var options: DatabaseOptions

    func validate() throws {
        guard (at == nil) != !clear else { throw ValidationError("give either --at INSTANT or --clear") }
    }

    func run() throws {
        try ChangeRequestCommandLine.with(options, address) { changes in
            let now = ServiceClock.system.milliseconds
            let instant = try at.map { text throws(ProblemDetails) in try ChangeRequests.instant(text, now: now) }
            let record = try changes.record(app: address.app, environment: address.environment, id: id)
            let next = try changes.schedule(record, at: instant, by: ChangeRequestCommandLine.actor)
            try ChangeRequestCommandLine.report(
                next, changes: changes, json: address.json,
                line: next.scheduledAt.map {
                    "\(ChangeRequestCommandLine.name(next)) is scheduled for \(AdminTime.iso8601($0)); "
                        + "the primary applies it then."
                } ?? "\(ChangeRequestCommandLine.name(next)) is no longer scheduled.")
        }
    }
}

/// `prelude changes apply ID --app APP`.
struct ChangesApplyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apply",
        abstract: "Publish an approved request as one revision (refused when it is stale or not approved).")

    @Argument(help: "The change request's id.")
    var id: String

    @OptionGroup var address: ChangeRequestAddress

    @OptionGroup var options: DatabaseOptions

    func run() throws {
        try ChangeRequestCommandLine.with(options, address) { changes in
            let record = try changes.record(app: address.app, environment: address.environment, id: id)
            let outcome = try changes.apply(record, bypass: false, by: ChangeRequestCommandLine.actor)
            let applied = outcome.record
            // A settings request publishes no revision; a rollout request's first step is the live one.
            guard let snapshot = outcome.snapshot, applied.kind != .settings else {
                try ChangeRequestCommandLine.report(
                    applied, changes: changes, json: address.json,
                    line: "\(ChangeRequestCommandLine.name(applied)) applied.", extra: JSONObject())
                return
            }
            try ChangeRequestCommandLine.report(
                applied, changes: changes, json: address.json,
                line: "\(ChangeRequestCommandLine.name(applied)) applied: revision \(snapshot.revision), "
                    + "ETag \(snapshot.etag.headerValue).",
                extra: JSONObject([
                    ("policy", ["revision": .integer(snapshot.revision), "etag": .string(snapshot.etag.headerValue)])
                ]))
        }
    }
}

/// `prelude changes rebase ID --app APP`.
struct ChangesRebaseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rebase",
        abstract: "Base a (stale) request on the live revision; its approvals are cleared and it is reviewed again.")

    @Argument(help: "The change request's id.")
    var id: String

    @OptionGroup var address: ChangeRequestAddress

    @OptionGroup var options: DatabaseOptions

    func run() throws {
        try ChangeRequestCommandLine.with(options, address) { changes in
            let record = try changes.record(app: address.app, environment: address.environment, id: id)
            let next = try changes.rebase(record, by: ChangeRequestCommandLine.actor)
            try ChangeRequestCommandLine.report(
                next, changes: changes, json: address.json,
                line: "\(ChangeRequestCommandLine.name(next)) is based on revision "
                    + "\(next.baseRevision.map(String.init) ?? "none") and \(next.state.rawValue).")
        }
    }
}

/// `prelude changes cancel ID --app APP [--reason TEXT]`.
struct ChangesCancelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cancel", abstract: "Cancel an open request.")

    @Argument(help: "The change request's id.")
    var id: String

    @Option(help: "Why (at most 500 characters).")
    var reason: String?

    @OptionGroup var address: ChangeRequestAddress

    @OptionGroup var options: DatabaseOptions

    func run() throws {
        try ChangeRequestCommandLine.with(options, address) { changes in
            let text = try ChangeRequests.text(reason, name: "reason")
            let record = try changes.record(app: address.app, environment: address.environment, id: id)
            let next = try changes.cancel(record, reason: text, by: ChangeRequestCommandLine.actor)
            try ChangeRequestCommandLine.report(
                next, changes: changes, json: address.json,
                line: "\(ChangeRequestCommandLine.name(next)) is cancelled.")
        }
    }
}
