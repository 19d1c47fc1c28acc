import PreludeCore
import PreludeHTTP
import Testing

@testable import PreludeService

/// The problems the admin API and `prelude policy import` answer for the policy store's refusals: each
/// ``PolicyStoreError`` maps to the problem the store used to throw itself, field for field.
@Suite struct PolicyStoreProblemTests {
    @Test func unknownAppAndAppExistsNameTheApp() {
        #expect(
            PolicyStoreProblem.problem(for: .unknownApp("ghost"))
                == ProblemDetails(
                    status: .notFound, type: "urn:prelude:problem:unknown-app", title: "Unknown app",
                    detail: "no app with the id \"ghost\"", instance: "/v1/apps/ghost"))
        #expect(
            PolicyStoreProblem.problem(for: .appExists("notes"))
                == ProblemDetails(
                    status: .conflict, type: "urn:prelude:problem:app-exists", detail: "app \"notes\" already exists",
                    instance: "/v1/admin/apps/notes"))
    }

    @Test func aMismatchPointsAtTheAppID() {
        #expect(
            PolicyStoreProblem.problem(for: .appMismatch(app: "demo", documentApp: "other"))
                == ProblemDetails(
                    status: .unprocessableContent, type: "urn:prelude:problem:app-mismatch",
                    detail: "the document is for app \"other\", not \"demo\"",
                    errors: [
                        FieldProblem(
                            pointer: "/app/id", code: "app.mismatch", detail: "app.id must be \"demo\" at this address")
                    ]))
    }

    @Test func staleNamesTheLiveETagOrSaysThereIsNone() throws {
        let database = try PublicFixture().makeDatabase()
        defer { database.close() }
        let store = PolicyStore(database: database)
        try store.loadAll()
        let live = try #require(store.snapshot(app: "demo"))
        let stale = PolicyStoreProblem.problem(for: .stale(current: live))
        #expect(stale.status == .preconditionFailed)
        #expect(stale.type == "urn:prelude:problem:stale-etag")
        #expect(stale.headers["ETag"] == live.etag.headerValue)
        #expect(
            stale.detail
                == "If-Match does not name the live revision; revision 1 is live with ETag \(live.etag.headerValue): "
                + "re-read, merge and retry")
        let none = PolicyStoreProblem.problem(for: .stale(current: nil))
        #expect(none.headers["ETag"] == nil)
        #expect(
            none.detail
                == "If-Match does not match: the app has no servable live revision (use If-Match: * to replace it)")
    }
}
