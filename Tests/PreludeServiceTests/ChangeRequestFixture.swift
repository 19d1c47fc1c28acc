import Foundation
import PreludeCore
import PreludeStorage
import PreludeStore
import Synchronization

@testable import PreludeService

/// A running service for change-request tests: its own database, the bootstrap write token, a clock the test sets
/// (what schedules are due against), and approval rules the test sets (the stored rules of the app's environment
/// with `approval` replaced). `restart()` stops it and starts a new process state on the same database.
final class ChangeServer {
    static let start: Int64 = 1_800_000_000_000
    let fixture = ServiceFixture()
    /// The clock and the approval rules the service reads, set by the test.
    final class Knobs: Sendable {
        let clock = Mutex<Int64>(ChangeServer.start)
        let approval: Mutex<ApprovalRules>
        init(_ approval: ApprovalRules) { self.approval = Mutex(approval) }
    }

    let knobs: Knobs
    private(set) var service: PreludeService
    let logLines = LockedLines()

    /// With `storedRules`, the environments' stored settings decide (`approval` is ignored).
    init(approval: ApprovalRules = .none, storedRules: Bool = false) throws {
        fixture.write("demo.json", AdminServer.policyText)
        knobs = Knobs(approval)
        self.storedRules = storedRules
        service = try Self.startService(fixture: fixture, knobs: knobs, lines: logLines, storedRules: storedRules)
    }

    private let storedRules: Bool

    deinit { service.stop() }

    private static func startService(
        fixture: ServiceFixture, knobs: Knobs, lines: LockedLines, storedRules: Bool
    ) throws -> PreludeService {
        var configuration = ServiceFixture.make(fixture)
        configuration.adminToken = RedactedSecret(AdminServer.secret)
        configuration.logLevel = .debug
        let serviceClock = ServiceClock { knobs.clock.withLock { $0 } }
        let injected: EnvironmentRules.Source = { app, environment in
            // App `demo` with its production environment only, as stored before environments exist.
            guard app == "demo" else { throw PolicyStoreProblem.unknownApp(app) }
            guard environment == EnvironmentRules.production else { return nil }
            return EnvironmentRules(approval: knobs.approval.withLock { $0 }, lintStrict: false)
        }
        return try PreludeService.start(
            configuration: configuration, logger: Logger(level: .debug) { lines.append($0) }, adminClock: serviceClock,
            changeRules: storedRules ? nil : injected)
    }

    /// Stops the service and starts it again on the same database (the scheduler's first run happens at start).
    func restart() throws {
        service.stop()
        service = try Self.startService(fixture: fixture, knobs: knobs, lines: logLines, storedRules: storedRules)
    }

    /// Sets the clock `seconds` after ``start``.
    func setClock(secondsAfterStart seconds: Int64) { knobs.clock.withLock { $0 = Self.start + seconds * 1000 } }

    /// One admin request (bootstrap token unless `token` says otherwise).
    @discardableResult
    func send(
        _ method: String, _ path: String, token: String? = AdminServer.secret, headers: [(String, String)] = [],
        body: String? = nil
    ) throws -> TestTransport.Response {
        try TestTransport.live(port: service.port).exchange(
            AdminRequest.bytes(method, path, token: token, headers: headers, body: body))
    }

    /// Creates a token named `name` with `scope` (and the `approve` / `bypass` capabilities); returns its secret.
    func token(_ name: String, scope: String = "write", approve: Bool = false, bypass: Bool = false) throws -> String {
        let response = try send(
            "POST", "/v1/admin/tokens",
            body: #"{"name": "\#(name)", "scope": "\#(scope)", "approve": \#(approve), "bypass": \#(bypass)}"#)
        guard response.status == 201, let secret = response.object["token"] as? String else {
            throw TestTransport.Failure.malformed("token \(name): \(response.status) \(response.body)")
        }
        return secret
    }

    /// The app's policy ETag.
    func etag() throws -> String { try send("GET", "/v1/admin/apps/demo/policy").headers["etag"] ?? "" }

    /// How many revisions app `demo` has.
    func revisionCount() throws -> Int {
        try service.database.read { db in
            try db.scalar("SELECT count(*) FROM policy_revisions WHERE app_id = 'demo'", as: Int64.self)
        }.map(Int.init) ?? 0
    }

    /// The audit records of `action`, oldest first: (actor, revision, detail).
    func audit(_ action: String) throws -> [(actor: String, revision: Int64?, detail: [String: Any])] {
        try service.database.read { db in
            try db.query(
                "SELECT actor, revision, detail FROM audit_log WHERE action = ? ORDER BY id", [.text(action)]
            ).map { row in
                let detail = try row.get("detail", as: String.self)
                return (
                    try row.get("actor", as: String.self), try row.get("revision", as: Int64?.self),
                    (try? JSONSerialization.jsonObject(with: Data(detail.utf8))) as? [String: Any] ?? [:]
                )
            }
        }
    }

    /// Every row of every table, in a stable order: what "nothing changed" compares.
    func dump() throws -> [String] {
        try service.database.read { db in
            let tables = try db.tableNames()
            return try tables.flatMap { table in
                try db.query("SELECT * FROM \"\(table)\"").map { "\(table): \($0.values)" }.sorted()
            }
        }
    }

    /// Proposes a merge patch of the camera's English priming title; returns the response.
    func propose(
        title: String, path: String = "/v1/admin/apps/demo/environments/production/change-requests",
        token: String = AdminServer.secret, draft: Bool = false
    ) throws -> TestTransport.Response {
        try send(
            "POST", path, token: token,
            body: #"{"patch": {"features": {"camera": {"copy": {"en": {"prime": {"title": "\#(title)"}}}}}}, "#
                + #""message": "retitle", "draft": \#(draft)}"#)
    }
}
