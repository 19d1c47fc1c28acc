import PreludeCore
import PreludeStorage
import PreludeStoreTestSupport
import Testing

@testable import PreludeStore

/// A replica's mirror of its primary's change feed, and the feed's format; on both engines.
@Suite struct ReplicaMirrorTests {
    @Test func mirrorReplacesARecreatedAppAndDropsDeletedOnes() throws {
        let database = try PolicyRepositoryTests.makeDatabase()
        defer { database.close() }
        let text = ResultsFixture.demoText
        let document = try JSONValue(parsing: text).serialized()
        func feed(_ etag: String, apps: [String] = ["demo"]) -> ChangeFeed {
            ChangeFeed(
                apps: apps.map {
                    ChangeFeed.App(
                        id: $0, name: "Demo", createdAt: 1, updatedAt: 2,
                        environments: [
                            ChangeFeed.Environment(
                                name: "production", requiredApprovals: 0, allowSelfApproval: false, lintStrict: false,
                                createdAt: 1, updatedAt: 2,
                                live: ChangeFeed.Revision(
                                    number: 1, etag: etag, createdAt: 3, author: "ops", message: nil,
                                    document: document))
                        ])
                })
        }
        #expect(try ReplicaMirror.apply(feed("\"r1-a\""), database, primary: "p", etag: "\"f-1\"", now: 10).isEmpty)
        #expect(try ReplicaMirror.apply(feed("\"r1-b\""), database, primary: "p", etag: "\"f-2\"", now: 11) == ["demo"])
        let etag = try database.read {
            try $0.scalar("SELECT etag FROM policy_revisions WHERE app_id = 'demo'", as: String.self)
        }
        #expect(etag == "\"r1-b\"")
        try ReplicaMirror.apply(ChangeFeed(apps: []), database, primary: "p", etag: "\"f-3\"", now: 12)
        #expect(try database.read { try $0.scalar("SELECT count(*) FROM apps", as: Int64.self) } == 0)
        #expect(try ReplicaMirror.state(database) == .init(primary: "p", etag: "\"f-3\"", syncedAt: 12))
    }

    /// A stamp that is not a positive integer is a format error naming the member; nothing is applied.
    @Test(arguments: [#""1""#, "0", "-2", "1.5", "true"])
    func aMalformedStampIsRefused(stamp: String) throws {
        let body = """
            {"apps":[{"id":"a","name":"A","createdAtMs":1,"updatedAtMs":1,"lintStrict":false,"live":{"revision":1,\
            "etag":"\\"r1\\"","createdAtMs":1,"author":"ops","message":null,"document":{},"rulesVersion":\(stamp)}}]}
            """
        let error = #expect(throws: ChangeFeed.FormatError.self) { try ChangeFeed(parsing: Array(body.utf8)) }
        #expect(error?.description == "/apps/0/live/rulesVersion is not a positive integer")
    }
}
