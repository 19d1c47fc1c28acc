import PreludeHTTP
import PreludeStore
import Synchronization

#if canImport(FoundationEssentials)
    import Dispatch
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

/// Checks the bearer token of every `/v1/admin/**` request (RFC 6750) and its scope.
///
/// Order: missing credentials → 401 with `WWW-Authenticate: Bearer realm="prelude"`; a wrong, malformed or revoked
/// token → 401 with `error="invalid_token"` (and counts as a failure for its source), or 429 with `Retry-After`
/// once the source is over its failure budget; a read token on a write → 403 with `error="insufficient_scope"`.
///
/// A valid token is never refused by the failure limiter: behind NAT, a load balancer or a container port proxy,
/// operators share an address, and one bad request every few seconds must not lock every one of them out. The
/// limiter therefore slows down guessing (a guess over budget gets 429 instead of 401), it does not stop a right
/// answer; guessing a token (at least 32 characters from a 66-character alphabet) is hopeless either way. The source
/// is the client address as ``TrustedProxies`` gives it. The secret is never logged; failures log the source and
/// the reason only.
package final class AdminAuthenticator: Sendable {
    /// The realm named in every challenge.
    package static let realm = "prelude"
    /// `last_used_at` is written at most this often per token (seconds), so reads do not cost a commit each.
    package static let touchInterval: Double = 60

    private let tokens: TokenStore
    private let logger: Logger
    private let clock: ServiceClock
    private let limiter: Mutex<FailureRateLimiter>
    private let lastTouched = Mutex<[Int64: Double]>([:])
    private let proxies: TrustedProxies

    /// An authenticator over `tokens`; `clock` is injected so tests control rate limits and `last_used_at`.
    package init(
        tokens: TokenStore, logger: Logger, limiter: FailureRateLimiter = FailureRateLimiter(),
        proxies: TrustedProxies = TrustedProxies(), clock: ServiceClock = .system
    ) {
        self.tokens = tokens
        self.proxies = proxies
        self.logger = logger
        self.limiter = Mutex(limiter)
        self.clock = clock
    }

    /// The token allowed to make `request` with at least `required` scope, or the problem to answer.
    package func authorize(_ request: HTTPRequest, required: TokenScope) throws(ProblemDetails) -> AdminToken {
        let now = clock.seconds
        let address = proxies.clientAddress(
            remoteAddress: request.remoteAddress, forwardedFor: request.headers.values(for: "X-Forwarded-For"))
        let values = request.headers.values(for: "Authorization")
        // A request with no credentials at all guesses nothing, so it gets its 401 even from an address over the
        // failure limit; the limiter only slows down attempts that present a token.
        if values.isEmpty && request.queryValue("access_token") == nil {
            // RFC 6750 §3.1: no error code when the request has no authentication information.
            throw Self.unauthorized(
                detail: "this endpoint needs an admin token: Authorization: Bearer $PRELUDE_TOKEN"
                    + (noTokensExist() ? Self.howToCreate : ""),
                challenge: "Bearer realm=\"\(Self.realm)\"")
        }
        // RFC 6750 §2.3 allows access_token in the query; we refuse it because URLs end up in logs and histories.
        if request.queryValue("access_token") != nil {
            throw failure(
                address, requestID: request.requestID, now: now, reason: "token in query string",
                detail: "send the token in an Authorization: Bearer header, never in the URL")
        }
        guard values.count == 1, let secret = Self.bearerCredentials(values[0]) else {
            throw failure(
                address, requestID: request.requestID, now: now, reason: "malformed Authorization",
                detail: "the Authorization field must be exactly one 'Bearer <token>'")
        }
        let token: AdminToken?
        do {
            token = try tokens.authenticate(secret: secret)
        } catch {
            logger.error("admin token lookup failed", ["error": "\(error)", "request_id": request.requestID])
            // A database that is away (a PostgreSQL restart or failover) answers as any storage failure does: 503
            // with Retry-After, so clients retry instead of giving up.
            throw StorageHealth.problem(for: error)
                ?? ProblemDetails(
                    status: .serviceUnavailable, detail: "the token store is unavailable; retry later",
                    headers: ["Retry-After": "\(StorageHealth.retryAfterSeconds)"])
        }
        guard let token else {
            throw failure(
                address, requestID: request.requestID, now: now, reason: "unknown or revoked token",
                detail: "the token is unknown or revoked" + (noTokensExist() ? Self.howToCreate : ""))
        }
        guard token.scope.allows(required) else {
            // RFC 6750 §3.1: insufficient_scope → 403, naming the scope needed.
            throw ProblemDetails(
                status: .forbidden,
                detail:
                    "token '\(token.name)' has scope '\(token.scope.rawValue)'; this request needs '\(required.rawValue)'",
                headers: [
                    "WWW-Authenticate":
                        "Bearer realm=\"\(Self.realm)\", error=\"insufficient_scope\", scope=\"\(required.rawValue)\""
                ])
        }
        touchIfDue(token, now: now)
        return token
    }

    /// The token68 of `Bearer <token>` (RFC 6750 §2.1; the scheme is case-insensitive, RFC 9110 §11.1), or nil.
    package static func bearerCredentials(_ value: String) -> String? {
        let parts = value.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let secret = String(parts[1])
        return secret.isEmpty ? nil : secret
    }

    private static let howToCreate =
        "; no admin token exists yet: run `prelude token create --name NAME --scope write` or start with PRELUDE_ADMIN_TOKEN set"

    private func noTokensExist() -> Bool { ((try? tokens.activeCount()) ?? 1) == 0 }

    private func failure(_ address: String, requestID: String, now: Double, reason: String, detail: String)
        -> ProblemDetails
    {
        let wait = limiter.withLock { limiter -> Int? in
            let wait = limiter.retryAfter(address, now: now)
            limiter.recordFailure(address, now: now)
            return wait
        }
        logger.warning(
            "admin authentication failed", ["address": address, "reason": reason, "request_id": requestID])
        if let wait {
            // RFC 6585 §4: 429 with Retry-After (delay-seconds, RFC 9110 §10.2.3), instead of the 401.
            return ProblemDetails(
                status: .tooManyRequests,
                detail: "too many failed authentications from this address; retry in \(wait) s",
                headers: ["Retry-After": "\(wait)"])
        }
        return Self.unauthorized(
            detail: detail,
            challenge: "Bearer realm=\"\(Self.realm)\", error=\"invalid_token\"")
    }

    private static func unauthorized(detail: String, challenge: String) -> ProblemDetails {
        ProblemDetails(status: .unauthorized, detail: detail, headers: ["WWW-Authenticate": challenge])
    }

    private func touchIfDue(_ token: AdminToken, now: Double) {
        let due = lastTouched.withLock { touched -> Bool in
            if let last = touched[token.id], now - last < Self.touchInterval, now >= last { return false }
            touched[token.id] = now
            return true
        }
        guard due else { return }
        do {
            try tokens.touch(id: token.id, now: Int64((now * 1000).rounded()))
        } catch {
            // Bookkeeping only: a failed update must not fail the request.
            logger.warning("could not record token use", ["token": token.name, "error": "\(error)"])
        }
    }
}
