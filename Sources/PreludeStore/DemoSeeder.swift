import PreludeCore
import PreludeStorage

#if canImport(FoundationEssentials)
    import Dispatch
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

/// Loads the demo policy as revision 1 of app `demo` (its `production` environment) when the database has no app yet.
package enum DemoSeeder {
    /// The demo app's id.
    package static let appID = "demo"

    /// Why the demo document cannot be seeded (not a JSON object); the service words it as a start-up error.
    package struct InvalidDocument: Error, Sendable, Equatable {
        /// The file it came from.
        package let path: String
        /// What is wrong.
        package let reason: String
    }

    /// Seeds the database from `documentText` if it holds no app; returns true when it did.
    ///
    /// The text is stored byte for byte (the policy core parses it); here it only has to be a JSON object.
    /// The check and the inserts run in one write transaction, serialized with every other process's start-up
    /// writes (``StartupLock``), so two starting processes cannot both seed.
    @discardableResult
    package static func seedIfEmpty(
        _ database: Database, documentText: String, sourcePath: String, clock: ServiceClock = .system
    ) throws -> Bool {
        let name: String
        do {
            guard case .object(let root) = try JSONValue(parsing: documentText) else {
                throw InvalidDocument(path: sourcePath, reason: "the top level is not an object")
            }
            // The app's name is the policy's (`app.name`), as every later write sets it.
            name = root["app"]?["name"]?.stringValue ?? "Demo"
        } catch let error as InvalidDocument {
            throw error
        } catch {
            throw InvalidDocument(path: sourcePath, reason: "not valid JSON (\(error))")
        }
        let milliseconds = clock.milliseconds
        // The tag the policy store serves for this revision (RevisionTag) when the document is valid; otherwise a
        // content hash (the store will not serve it, and an admin replaces it with If-Match: *).
        let etag =
            PolicyValidator.validate(text: documentText).document.map {
                RevisionTag.quoted(revision: 1, canonical: $0.jsonValue.serializedBytes())
            } ?? "\"" + SHA256.hex(documentText.utf8) + "\""
        return try database.write { db in
            try db.serializeWithOtherProcesses(key: StartupLock.key)
            guard try db.scalar("SELECT count(*) FROM apps", as: Int64.self) == 0 else { return false }
            try db.execute(
                "INSERT INTO apps (id, name, live_revision, created_at, updated_at) VALUES (?, ?, NULL, ?, ?)",
                [.text(appID), .text(name), .integer(milliseconds), .integer(milliseconds)])
            try db.execute(
                """
                INSERT INTO environments (app_id, name, live_revision, created_at, updated_at)
                VALUES (?, 'production', 1, ?, ?)
                """, [.text(appID), .integer(milliseconds), .integer(milliseconds)])
            try db.execute(
                """
                INSERT INTO policy_revisions (app_id, number, document, etag, created_at, author, message)
                VALUES (?, 1, ?, ?, ?, 'system', ?)
                """,
                [
                    .text(appID), .text(documentText), .text(etag), .integer(milliseconds),
                    .text("demo policy from \(sourcePath)"),
                ])
            try AuditLog.append(
                db, actor: "system", app: appID, environment: EnvironmentName.production, action: "app.seed",
                revision: 1,
                detail: ["source": .string(sourcePath)],
                at: milliseconds)
            return true
        }
    }
}

/// The lock a starting process's "insert if missing" writes hold (the demo seed, the bootstrap token), so nodes of a
/// cluster started at once on an empty PostgreSQL database do not both insert (the second failed on a unique key
/// and exited). ``Connection/serializeWithOtherProcesses(key:)``.
package enum StartupLock {
    /// The advisory lock key ("startup" in ASCII), distinct from the migrator's.
    package static let key: Int64 = 0x73_74_61_72_74_75_70
}
