import PreludeCore
import PreludeStorage

/// What a read replica needs to serve exactly what the primary serves: every app with each environment's settings and
/// live revision as stored (number, entity tag, document, author, times). The body of `GET /v1/admin/changes` (docs/scaling.md).
///
/// ```json
/// {"apps": [{"id": "demo", "name": "Demo", "createdAtMs": 1795…, "updatedAtMs": 1795…, "lintStrict": false,
///            "live": {"revision": 3, "etag": "\"r3-…\"", "createdAtMs": 1795…, "author": "ops", "message": null,
///                     "document": {…}, "rulesVersion": 1}}]}
/// ```
/// Times are integer milliseconds since the epoch, exactly as stored. Apps are sorted by id, so the same database state always gives the same bytes, and the feed's entity tag (a hash
/// of those bytes) changes exactly when something a replica serves changed. The replica stores the revision rows as
/// they are and rebuilds its snapshots from them with the same code the primary uses: hence the same bytes and tags.
package struct ChangeFeed: Sendable, Equatable {
    /// One app and its live revision.
    package struct App: Sendable, Equatable {
        /// The app id.
        package var id: String
        /// Its name (from the live document).
        package var name: String
        /// When the app was created, ms since the epoch.
        package var createdAt: Int64
        /// When its live revision last changed, ms since the epoch.
        package var updatedAt: Int64
        /// Its environments, sorted by name (production among them).
        package var environments: [Environment]

        /// Production's strict-lint setting (what replicas of earlier builds read).
        package var lintStrict: Bool { production?.lintStrict ?? false }
        /// Production's live revision (what replicas of earlier builds read); nil when none.
        package var live: Revision? { production?.live }
        private var production: Environment? { environments.first { $0.name == EnvironmentName.production } }
    }

    /// One environment of an app: its settings (mirrored so a promoted replica keeps them) and live revision.
    package struct Environment: Sendable, Equatable {
        /// Its name.
        package var name: String
        /// Required approvals (0–5).
        package var requiredApprovals: Int
        /// Whether an author may approve their own change.
        package var allowSelfApproval: Bool
        /// Whether lint errors refuse a change.
        package var lintStrict: Bool
        /// When it was created, ms since the epoch.
        package var createdAt: Int64
        /// When its live revision or settings last changed, ms since the epoch.
        package var updatedAt: Int64
        /// The live revision; nil when it has none.
        package var live: Revision?
    }

    /// A revision row as stored on the primary.
    package struct Revision: Sendable, Equatable {
        /// Its number.
        package var number: Int
        /// Its entity tag as stored (`"r3-…"`, with quotes).
        package var etag: String
        /// When it was created, ms since the epoch.
        package var createdAt: Int64
        /// The token name that created it.
        package var author: String
        /// Its message.
        package var message: String?
        /// The document as stored (canonical JSON text).
        package var document: String
        /// The primary's record that its rules accepted these bytes (``PreludeCore/PolicyValidator/rulesVersion``
        /// when written; nil when unstamped). A replica stores it with the row, so a replica of a build with the same
        /// rules starts without validating the revision again, as the primary does (docs/storage.md "Start-up").
        package var rulesVersion: Int? = nil
    }

    /// Every app, sorted by id.
    package var apps: [App]

    /// A feed of `apps` (sorted here).
    package init(apps: [App]) {
        self.apps = apps.sorted { $0.id < $1.id }
    }

    /// Reads the current feed from the database (two queries in the caller's transaction).
    package static func read(_ db: Connection) throws -> ChangeFeed {
        let rows = try db.query(
            """
            SELECT e.app_id, e.name, e.required_approvals, e.allow_self_approval, e.lint_strict,
                   e.created_at AS env_created, e.updated_at AS env_updated, e.live_revision,
                   r.etag, r.created_at, r.author, r.message, r.document, r.rules_version
            FROM environments e LEFT JOIN policy_revisions r ON r.app_id = e.app_id AND r.number = e.live_revision
            ORDER BY e.app_id, e.name
            """)
        var environments: [String: [Environment]] = [:]
        for row in rows {
            var live: Revision?
            if let number = try row.get("live_revision", as: Int64?.self),
                let document = try row.get("document", as: String?.self)
            {
                live = Revision(
                    number: Int(number), etag: try row.get("etag", as: String.self),
                    createdAt: try row.get("created_at", as: Int64.self),
                    author: try row.get("author", as: String.self),
                    message: try row.get("message", as: String?.self), document: document,
                    rulesVersion: try row.get("rules_version", as: Int64?.self).map(Int.init))
            }
            environments[try row.get("app_id", as: String.self), default: []].append(
                Environment(
                    name: try row.get("name", as: String.self),
                    requiredApprovals: Int(try row.get("required_approvals", as: Int64.self)),
                    allowSelfApproval: try row.get("allow_self_approval", as: Int64.self) != 0,
                    lintStrict: try row.get("lint_strict", as: Int64.self) != 0,
                    createdAt: try row.get("env_created", as: Int64.self),
                    updatedAt: try row.get("env_updated", as: Int64.self), live: live))
        }
        let apps = try db.query("SELECT id, name, created_at, updated_at FROM apps ORDER BY id")
        return ChangeFeed(
            apps: try apps.map { row in
                let id = try row.get("id", as: String.self)
                return App(
                    id: id, name: try row.get("name", as: String.self),
                    createdAt: try row.get("created_at", as: Int64.self),
                    updatedAt: try row.get("updated_at", as: Int64.self), environments: environments[id] ?? [])
            })
    }

    private static func revisionJSON(_ live: Revision?) throws -> JSONValue {
        guard let live else { return .null }
        var object = JSONObject([
            ("revision", .integer(live.number)), ("etag", .string(live.etag)),
            ("createdAtMs", .integer(Int(live.createdAt))), ("author", .string(live.author)),
            ("message", live.message.map(JSONValue.string) ?? .null),
            ("document", try JSONValue(parsing: live.document)),
        ])
        // Left out when unstamped, so a feed of unstamped rows reads as before this member existed.
        if let rulesVersion = live.rulesVersion { object["rulesVersion"] = .integer(rulesVersion) }
        return .object(object)
    }

    /// The feed as JSON; documents are embedded as JSON values. `lintStrict` and `live` of each app are its
    /// production environment's, as replicas of builds before environments read them.
    package func jsonValue() throws -> JSONValue {
        .object(
            JSONObject([
                (
                    "apps",
                    .array(
                        try apps.map { app in
                            var object = JSONObject()
                            object["id"] = .string(app.id)
                            object["name"] = .string(app.name)
                            object["createdAtMs"] = .integer(Int(app.createdAt))
                            object["updatedAtMs"] = .integer(Int(app.updatedAt))
                            object["lintStrict"] = .bool(app.lintStrict)
                            object["live"] = try Self.revisionJSON(app.live)
                            object["environments"] = .array(
                                try app.environments.map { environment in
                                    .object(
                                        JSONObject([
                                            ("name", .string(environment.name)),
                                            ("requiredApprovals", .integer(environment.requiredApprovals)),
                                            ("allowSelfApproval", .bool(environment.allowSelfApproval)),
                                            ("lintStrict", .bool(environment.lintStrict)),
                                            ("createdAtMs", .integer(Int(environment.createdAt))),
                                            ("updatedAtMs", .integer(Int(environment.updatedAt))),
                                            ("live", try Self.revisionJSON(environment.live)),
                                        ]))
                                })
                            return .object(object)
                        })
                )
            ]))
    }

    /// Why a feed body could not be read.
    package struct FormatError: Error, CustomStringConvertible {
        /// What is wrong, naming the member.
        package let description: String
    }

    /// Parses a feed body (what ``jsonValue()`` wrote).
    package init(parsing bytes: [UInt8]) throws {
        let root: JSONValue
        do {
            root = try JSONValue(parsing: bytes)
        } catch {
            throw FormatError(description: "the change feed is not JSON: \(error)")
        }
        guard let list = root["apps"]?.arrayValue else { throw FormatError(description: "no /apps array") }
        func time(_ value: JSONValue?, _ pointer: String) throws -> Int64 {
            guard case .integer(let ms)? = value else {
                throw FormatError(description: "\(pointer) is not a time in milliseconds")
            }
            return Int64(ms)
        }
        func text(_ value: JSONValue?, _ pointer: String) throws -> String {
            guard let text = value?.stringValue else { throw FormatError(description: "\(pointer) is not a string") }
            return text
        }
        func revision(_ value: JSONValue?, _ at: String) throws -> Revision? {
            guard let revision = value, !revision.isNull else { return nil }
            guard let number = revision["revision"]?.intValue, number >= 1,
                let document = revision["document"], document.objectValue != nil
            else { throw FormatError(description: "\(at) needs a revision number and a document object") }
            let message = revision["message"]
            var rulesVersion: Int?
            if let stamp = revision["rulesVersion"], !stamp.isNull {
                guard let version = stamp.intValue, version >= 1 else {
                    throw FormatError(description: "\(at)/rulesVersion is not a positive integer")
                }
                rulesVersion = version
            }
            return Revision(
                number: number, etag: try text(revision["etag"], "\(at)/etag"),
                createdAt: try time(revision["createdAtMs"], "\(at)/createdAtMs"),
                author: try text(revision["author"], "\(at)/author"),
                message: message == nil || message!.isNull ? nil : try text(message, "\(at)/message"),
                document: document.serialized(), rulesVersion: rulesVersion)
        }
        var apps: [App] = []
        for (index, item) in list.enumerated() {
            let at = "/apps/\(index)"
            let createdAt = try time(item["createdAtMs"], "\(at)/createdAtMs")
            let updatedAt = try time(item["updatedAtMs"], "\(at)/updatedAtMs")
            var environments: [Environment] = []
            if let listed = item["environments"]?.arrayValue {
                for (position, environment) in listed.enumerated() {
                    let here = "\(at)/environments/\(position)"
                    let name = try text(environment["name"], "\(here)/name")
                    guard EnvironmentName.isValid(name) else {
                        throw FormatError(description: "\(here)/name is not an environment name")
                    }
                    guard let approvals = environment["requiredApprovals"]?.intValue,
                        (0...EnvironmentSettings.maximumApprovals).contains(approvals)
                    else { throw FormatError(description: "\(here)/requiredApprovals is not 0–5") }
                    environments.append(
                        Environment(
                            name: name, requiredApprovals: approvals,
                            allowSelfApproval: environment["allowSelfApproval"]?.boolValue ?? false,
                            lintStrict: environment["lintStrict"]?.boolValue ?? false,
                            createdAt: try time(environment["createdAtMs"], "\(here)/createdAtMs"),
                            updatedAt: try time(environment["updatedAtMs"], "\(here)/updatedAtMs"),
                            live: try revision(environment["live"], "\(here)/live")))
                }
            } else {
                // A primary of a build before environments: its one live revision is production's.
                environments.append(
                    Environment(
                        name: EnvironmentName.production, requiredApprovals: 0, allowSelfApproval: false,
                        lintStrict: item["lintStrict"]?.boolValue ?? false, createdAt: createdAt, updatedAt: updatedAt,
                        live: try revision(item["live"], "\(at)/live")))
            }
            apps.append(
                App(
                    id: try text(item["id"], "\(at)/id"), name: try text(item["name"], "\(at)/name"),
                    createdAt: createdAt, updatedAt: updatedAt,
                    environments: environments.sorted { $0.name < $1.name }))
        }
        self.init(apps: apps)
    }
}
