import PreludeCore
import PreludeStorage

/// What a read replica needs to serve exactly what the primary serves: every app with its live revision as stored
/// (number, entity tag, document, author, times). The body of `GET /v1/admin/changes` (docs/scaling.md).
///
/// ```json
/// {"apps": [{"id": "demo", "name": "Demo", "createdAtMs": 1795…, "updatedAtMs": 1795…, "lintStrict": false,
///            "live": {"revision": 3, "etag": "\"r3-…\"", "createdAtMs": 1795…, "author": "ops", "message": null,
///                     "document": {…}}}]}
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
        /// Its strict-lint setting (an admin setting, mirrored so a promoted replica keeps it).
        package var lintStrict: Bool
        /// The live revision; nil when the app has none.
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
    }

    /// Every app, sorted by id.
    package var apps: [App]

    /// A feed of `apps` (sorted here).
    package init(apps: [App]) {
        self.apps = apps.sorted { $0.id < $1.id }
    }

    /// Reads the current feed from the database (one query).
    package static func read(_ db: Connection) throws -> ChangeFeed {
        let rows = try db.query(
            """
            SELECT a.id, a.name, a.created_at AS app_created, a.updated_at, a.lint_strict, a.live_revision,
                   r.etag, r.created_at, r.author, r.message, r.document
            FROM apps a LEFT JOIN policy_revisions r ON r.app_id = a.id AND r.number = a.live_revision
            ORDER BY a.id
            """)
        return ChangeFeed(
            apps: try rows.map { row in
                var live: Revision?
                if let number = try row.get("live_revision", as: Int64?.self),
                    let document = try row.get("document", as: String?.self)
                {
                    live = Revision(
                        number: Int(number), etag: try row.get("etag", as: String.self),
                        createdAt: try row.get("created_at", as: Int64.self),
                        author: try row.get("author", as: String.self),
                        message: try row.get("message", as: String?.self), document: document)
                }
                return App(
                    id: try row.get("id", as: String.self), name: try row.get("name", as: String.self),
                    createdAt: try row.get("app_created", as: Int64.self),
                    updatedAt: try row.get("updated_at", as: Int64.self),
                    lintStrict: try row.get("lint_strict", as: Int64.self) != 0, live: live)
            })
    }

    /// The feed as JSON; documents are embedded as JSON values.
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
                            if let live = app.live {
                                object["live"] = .object(
                                    JSONObject([
                                        ("revision", .integer(live.number)), ("etag", .string(live.etag)),
                                        ("createdAtMs", .integer(Int(live.createdAt))),
                                        ("author", .string(live.author)),
                                        ("message", live.message.map(JSONValue.string) ?? .null),
                                        ("document", try JSONValue(parsing: live.document)),
                                    ]))
                            } else {
                                object["live"] = .null
                            }
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
        var apps: [App] = []
        for (index, item) in list.enumerated() {
            let at = "/apps/\(index)"
            var live: Revision?
            if let revision = item["live"], !revision.isNull {
                guard let number = revision["revision"]?.intValue, number >= 1,
                    let document = revision["document"], document.objectValue != nil
                else { throw FormatError(description: "\(at)/live needs a revision number and a document object") }
                let message = revision["message"]
                live = Revision(
                    number: number, etag: try text(revision["etag"], "\(at)/live/etag"),
                    createdAt: try time(revision["createdAtMs"], "\(at)/live/createdAtMs"),
                    author: try text(revision["author"], "\(at)/live/author"),
                    message: message == nil || message!.isNull ? nil : try text(message, "\(at)/live/message"),
                    document: document.serialized())
            }
            apps.append(
                App(
                    id: try text(item["id"], "\(at)/id"), name: try text(item["name"], "\(at)/name"),
                    createdAt: try time(item["createdAtMs"], "\(at)/createdAtMs"),
                    updatedAt: try time(item["updatedAtMs"], "\(at)/updatedAtMs"),
                    lintStrict: item["lintStrict"]?.boolValue ?? false, live: live))
        }
        self.init(apps: apps)
    }
}
