import Foundation
import PreludeCore
import PreludeStorage
import PreludeStore
import Testing

@testable import PreludeService

/// A revision this build's rules accepted is not validated again at start-up (migration 0015, docs/storage.md
/// "Start-up"); every other stored revision is, as before: its findings reported, its fallback texts served, and one
/// this build cannot serve named by readiness.
@Suite struct StartupRulesVersionTests {
    let fixture = PublicFixture()

    /// A policy whose `unsupported` texts are missing: the current rules require them, so validating it finds two
    /// problems (`copy.missing`) and the stored reading serves two fallback texts. Trusted without validation, it
    /// has neither.
    static let lacksTexts = """
        {"schemaVersion":1,"app":{"id":"tiny","name":"Tiny"},"features":{"health":{"strategy":"direct","copy":{"en":{\
        "settings":{"title":"Health is off","message":"Open Settings.","openLabel":"Open Settings","cancelLabel":"Not Now"},\
        "denied":{"title":"Health is off","message":"Turn it on in Settings."}}}}}}
        """

    /// `lacksTexts` with the texts: what this build accepts.
    static let complete = lacksTexts.replacingOccurrences(
        of: #""Turn it on in Settings."}"#,
        with: #""Turn it on in Settings."},"unsupported":{"title":"No Health","message":"No Health app."}"#)

    /// Writes app `tiny` with `text` as its live production revision 1, as a build stamped it: `rulesVersion` and
    /// the entity tag of `taggedText` (the bytes it accepted; `text` unless the row was changed afterwards).
    static func insert(_ database: Database, text: String, rulesVersion: Int?, taggedText: String? = nil) throws {
        let etag = RevisionTag.quoted(revision: 1, canonical: Array((taggedText ?? text).utf8))
        try database.write { db in
            try db.execute("INSERT INTO apps (id, name, created_at, updated_at) VALUES ('tiny', 'Tiny', 0, 0)")
            try db.execute(
                """
                INSERT INTO policy_revisions (app_id, number, document, etag, created_at, author, message, rules_version)
                VALUES ('tiny', 1, ?, ?, 0, 'test', NULL, ?)
                """, [.text(text), .text(etag), rulesVersion.map { .integer(Int64($0)) } ?? .null])
            try db.execute(
                """
                INSERT INTO environments (app_id, name, live_revision, created_at, updated_at)
                VALUES ('tiny', 'production', 1, 0, 0)
                """)
        }
    }

    static func storedRulesVersions(_ database: Database, app: String) throws -> [Int?] {
        try database.read { db in
            try db.query("SELECT rules_version FROM policy_revisions WHERE app_id = ? ORDER BY number", [.text(app)])
                .map { try $0.get("rules_version", as: Int64?.self).map(Int.init) }
        }
    }

    /// What a start-up loads: a fresh store over the database.
    static func started(_ database: Database) throws -> PolicyStore {
        let store = PolicyStore(database: database)
        try store.loadAll()
        return store
    }

    @Test func whatThisBuildWritesRecordsItsRulesAndReadsBackTheSame() throws {
        let database = try fixture.makeDatabase()
        defer { database.close() }
        let store = try Self.started(database)
        var document = PublicFixture.demoDocument
        document.app = AppInfo(id: "com.example.notes", name: "Notes")
        try store.createApp(app: "com.example.notes", document: document, author: "ops", message: nil)
        document.app.name = "Notes 2"
        try store.commit(
            app: "com.example.notes", document: document, author: "ops", action: "policy.replace", message: nil,
            precondition: nil, auditDetail: .null)
        #expect(
            try Self.storedRulesVersions(database, app: "com.example.notes")
                == [PolicyValidator.rulesVersion, PolicyValidator.rulesVersion])

        let restarted = try Self.started(database)
        let served = try #require(restarted.snapshot(app: "com.example.notes"))
        let written = try #require(store.snapshot(app: "com.example.notes"))
        #expect(served.revision == 2)
        #expect(served.canonicalBytes == written.canonicalBytes)
        #expect(served.canonicalBytes == document.jsonValue.serializedBytes())
        #expect(served.etag == written.etag)
        #expect(served.storedFindings.isEmpty && served.fallbacks.isEmpty)
        #expect(!served.live.isDocumentDecoded)
        #expect(served.document == document)
    }

    /// A write that no webhook listens to does not build the previous revision's JSON (the webhook diff's base), so
    /// a revision loaded at start-up and replaced before anyone fetched it is never decoded.
    @Test func aWriteNobodyIsToldAboutLeavesThePreviousDocumentUndecoded() throws {
        let database = try fixture.makeDatabase()
        defer { database.close() }
        try Self.insert(database, text: Self.complete, rulesVersion: PolicyValidator.rulesVersion)
        let store = try Self.started(database)
        let previous = try #require(store.snapshot(app: "tiny"))
        #expect(!previous.live.isDocumentDecoded)
        var document = try #require(StoredPolicyReader.readAccepted(bytes: Array(Self.complete.utf8)))
        document.app.name = "Tiny 2"
        try store.commit(
            app: "tiny", document: document, author: "ops", action: "policy.replace", message: nil,
            precondition: nil, auditDetail: .null)
        #expect(store.snapshot(app: "tiny")?.revision == 2)
        #expect(!previous.live.isDocumentDecoded)
    }

    /// The skip is taken: a revision stamped by these rules is read as stored, not validated (validating this one
    /// would find two problems). Only what this build's own writes stamp is trusted so.
    @Test func aRevisionStampedByTheseRulesIsNotValidatedAgain() throws {
        let database = try fixture.makeDatabase()
        defer { database.close() }
        try Self.insert(database, text: Self.lacksTexts, rulesVersion: PolicyValidator.rulesVersion)
        let store = try Self.started(database)
        let served = try #require(store.snapshot(app: "tiny"))
        #expect(served.storedFindings.isEmpty && served.fallbacks.isEmpty)
        #expect(served.canonicalBytes == Array(Self.lacksTexts.utf8))
        #expect(served.etag.opaqueTag == RevisionTag.make(revision: 1, canonical: Array(Self.lacksTexts.utf8)))
        #expect(served.document.features[.health]?.settings.copy[LocaleTag("en")!]?.texts.count == 6)
    }

    /// A revision accepted under other rules (older, or newer after a downgrade) or before rules were recorded is
    /// validated at start-up as before: findings, fallback texts, shown in the log and the admin summary.
    @Test(arguments: [nil, PolicyValidator.rulesVersion - 1, PolicyValidator.rulesVersion + 1])
    func aRevisionFromOtherRulesIsValidatedAsBefore(rulesVersion: Int?) throws {
        let database = try fixture.makeDatabase()
        defer { database.close() }
        try Self.insert(database, text: Self.lacksTexts, rulesVersion: rulesVersion)
        let store = try Self.started(database)
        let served = try #require(store.snapshot(app: "tiny"))
        #expect(served.storedFindings.map(\.code) == [.missingCopy, .missingCopy])
        #expect(
            served.fallbacks.map(\.description) == [
                "/features/health/copy/en/unsupported/message", "/features/health/copy/en/unsupported/title",
            ])
        #expect(served.document.features[.health]?.settings.copy[LocaleTag("en")!]?.texts.count == 8)
        #expect(
            served.canonicalBytes
                == StoredPolicyReader.read(text: Self.lacksTexts).document?.jsonValue.serializedBytes())
    }

    /// The stamp covers the bytes accepted: a stamped row whose text changed afterwards (its entity tag no longer
    /// matches) is validated.
    @Test func aStampedRevisionWhoseTextChangedIsValidated() throws {
        let database = try fixture.makeDatabase()
        defer { database.close() }
        try Self.insert(
            database, text: Self.lacksTexts, rulesVersion: PolicyValidator.rulesVersion, taggedText: Self.complete)
        let store = try Self.started(database)
        let served = try #require(store.snapshot(app: "tiny"))
        #expect(served.storedFindings.map(\.code) == [.missingCopy, .missingCopy])
        #expect(served.fallbacks.count == 2)
    }

    /// Readiness is unchanged: a stamped revision of another schema, one that does not decode, or another app's is
    /// not served, and `/readyz`'s reason names it. (The column's `json_valid` check keeps text that is not JSON out.)
    @Test(arguments: [
        (#"{"schemaVersion":2,"app":{"id":"tiny"},"features":{}}"#, "another schema"),
        (#"{"schemaVersion":1,"app":"tiny","features":{}}"#, "does not decode"),
        (complete.replacingOccurrences(of: #""id":"tiny""#, with: #""id":"other""#), #"is for app "other""#),
    ])
    func aStampedRevisionThisBuildCannotServeIsNamedByReadiness(text: String, reason: String) throws {
        let database = try fixture.makeDatabase()
        defer { database.close() }
        try Self.insert(database, text: text, rulesVersion: PolicyValidator.rulesVersion)
        let store = try Self.started(database)
        #expect(store.snapshot(app: "tiny") == nil)
        let unavailable = try #require(store.unavailability(app: "tiny"))
        #expect(unavailable.reason.contains(reason), "\(unavailable.reason)")
        let readiness = try #require(store.readinessProblem)
        #expect(readiness.contains(#"app "tiny""#) && readiness.contains(reason), "\(readiness)")
        #expect(store.snapshot(app: "demo") != nil)
    }

    /// A copy records these rules only when its source meets them as it is: a copy of a revision served with
    /// findings is validated at every start-up like its source.
    @Test func aCopyIsStampedOnlyWhenItsSourceHasNoFindings() throws {
        let database = try fixture.makeDatabase()
        defer { database.close() }
        try Self.insert(database, text: Self.lacksTexts, rulesVersion: nil)
        let store = try Self.started(database)
        #expect(store.snapshot(app: "tiny")?.storedFindings.isEmpty == false)
        try store.createEnvironment(
            app: "tiny", name: "staging", copyFrom: "production", author: "ops", auditDetail: .null)
        try store.createEnvironment(
            app: "demo", name: "staging", copyFrom: "production", author: "ops", auditDetail: .null)
        // The copy carries its source's findings until a start-up validates it, so a copy of it is not stamped either.
        #expect(store.snapshot(app: "tiny", environment: "staging")?.storedFindings.isEmpty == false)
        try store.createEnvironment(app: "tiny", name: "qa", copyFrom: "staging", author: "ops", auditDetail: .null)
        #expect(try Self.storedRulesVersions(database, app: "tiny") == [nil, nil, nil])
        #expect(try Self.storedRulesVersions(database, app: "demo").last == PolicyValidator.rulesVersion)

        let restarted = try Self.started(database)
        let copy = try #require(restarted.snapshot(app: "tiny", environment: "staging"))
        // The copy holds the source's fallback texts, so it now validates as written; it was still validated.
        #expect(copy.document == store.snapshot(app: "tiny")?.document)
        #expect(restarted.snapshot(app: "demo", environment: "staging")?.document == PublicFixture.demoDocument)
    }
}
