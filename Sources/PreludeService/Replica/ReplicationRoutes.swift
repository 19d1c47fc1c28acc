import Dispatch
import PreludeCore
import PreludeHTTP
import PreludeStorage
import PreludeStore

#if canImport(FoundationEssentials)
    import Dispatch
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

/// What a primary offers its read replicas (docs/scaling.md, "Change feed"), on the admin listener, with a token of
/// scope `replica` (the feed alone needs only `read`):
///
/// - `GET /v1/admin/changes?wait=S` with `If-None-Match`: the ``ChangeFeed``, tagged with a strong entity tag of its
///   bytes. When the tag still matches, the answer is held until a revision goes live (then 200 at once) or `wait`
///   seconds pass (then 304). `wait` is 0–``maxWait``, default 0 (no holding); `If-None-Match: *` is never held.
/// - `POST /v1/admin/apps/{app}[/environments/{env}]/events` (scope `replica` or `write`): a replica forwarding its
///   outbox, each batch to the environment its clients asked. The batch is parsed by the same decoder as
///   the public endpoint and stored by the same ingestor, deduplicated on the client event ids; the per-install and
///   per-address ingestion budgets are not applied (the replica applied them to the clients), nor the experiment
///   check (the replica checked each batch against the revision it served when it accepted it).
package enum ReplicationRoutes {
    /// The longest a change-feed request is held, in seconds.
    package static let maxWait = 30

    /// Type of the problem a read replica answers admin writes with.
    package static let readReplicaProblem = "urn:prelude:problem:read-replica"

    /// The 409 a read replica answers every admin write with, naming its primary.
    package static func readReplica(primary: FollowURL) -> ProblemDetails {
        ProblemDetails(
            status: .conflict, type: readReplicaProblem, title: "Read replica",
            detail: "this server is a read replica of \(primary); send admin writes to the primary")
    }

    /// Registers both routes on `router` (the admin router when the admin API has its own listener).
    package static func register(
        on router: inout Router, api: AdminAPI, ingestor: EventIngestor, followURL: FollowURL?
    ) {
        let store = api.store
        let database = api.database
        let authenticator = api.authenticator
        router.addDeferred(.get, "/v1/admin/changes") { request, completion in
            let token = try authenticator.authorize(request, required: .read)
            // The feed holds every app's environments: only a token for all of them may follow it.
            try AdminAPI.checkGrant(token, request: request, pattern: "/v1/admin/changes")
            try AdminQuery.check(request, allowed: ["wait"])
            let wait = try AdminAPI.integerQuery(request, "wait", default: 0, range: 0...maxWait)
            let ifNoneMatch = request.headers["If-None-Match"]
            let deadline = DispatchTime.now() + .seconds(wait)
            @Sendable func attempt() {
                let seen = store.changes.generation
                let feed: (body: [UInt8], etag: ETag)
                do {
                    feed = try read(database)
                } catch {
                    // A storage failure renders itself: 503 with Retry-After (StorageError's ProblemError conformance).
                    completion(.failure(error))
                    return
                }
                var headers = HTTPHeaders()
                headers.set("ETag", feed.etag.headerValue)
                headers.set("Cache-Control", "no-store")
                guard let ifNoneMatch, feed.etag.matchesIfNoneMatch(ifNoneMatch) else {
                    headers.set("Content-Type", "application/json")
                    completion(.success(HTTPResponse(status: .ok, headers: headers, body: feed.body)))
                    return
                }
                let notModified = HTTPResponse(status: .notModified, headers: headers, body: [])
                let now = DispatchTime.now()
                // `*` matches any feed: answered at once, never held (only a replica's own tag waits for news).
                guard now < deadline, !ETag.parseList(ifNoneMatch).isWildcard else {
                    completion(.success(notModified))
                    return
                }
                let remaining = Double(deadline.uptimeNanoseconds - now.uptimeNanoseconds) / 1e9
                store.changes.wait(after: seen, timeout: remaining) { changed in
                    guard changed else {
                        completion(.success(notModified))
                        return
                    }
                    // Off the committing thread: the admin write that bumped the signal answers first.
                    DispatchQueue.global().async { attempt() }
                }
            }
            attempt()
        }

        for base in ["/v1/admin/apps/{app}", "/v1/admin/apps/{app}/environments/{env}"] {
            let pattern = base + "/events"
            router.addDeferred(.post, pattern, options: RouteOptions(maxBodySize: EventBatch.maxBodySize)) {
                request, completion in
                if let followURL { throw readReplica(primary: followURL) }
                // It skips the budgets and the experiment check: a `read` token must not be able to add events.
                let token = try authenticator.authorize(request, required: .replica)
                try AdminAPI.checkGrant(token, request: request, pattern: pattern)
                try AdminQuery.check(request, allowed: [])
                try EventRoutes.requireJSON(request)
                let app = request.pathParameter("app") ?? ""
                let environment = request.pathParameter("env") ?? EnvironmentName.production
                guard
                    store.snapshot(app: app, environment: environment) != nil
                        || store.unavailability(app: app, environment: environment) != nil
                else { throw PublicRoutes.missing(app: app, environment: environment, store: store) }
                // The replica forwards each device segment in its own batch, with the client's headers.
                let segment = try EventSegment.declared(by: request)
                let body = try EventBodyCoding.decodedBody(request, maxSize: EventBatch.maxBodySize)
                var batch = try EventBatch.decode(body, now: ingestor.now)
                batch.tag(with: segment)
                ingestor.submit(app: app, environment: environment, batch: batch) {
                    completion(EventRoutes.response(app: app, $0))
                }
            }
        }
    }

    /// The feed's bytes and their strong entity tag.
    package static func read(_ database: Database) throws -> (body: [UInt8], etag: ETag) {
        let feed = try database.read { try ChangeFeed.read($0) }
        let body = try feed.jsonValue().serializedBytes()
        return (body, ETag("f-" + ETag.strong(for: body).opaqueTag))
    }
}
