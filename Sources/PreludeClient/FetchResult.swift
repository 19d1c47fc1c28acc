/// What one policy refresh did.
public enum FetchResult: Sendable, Hashable, CustomStringConvertible {
    /// No request: the copy is fresh, or a backoff or `Retry-After` is pending.
    case skipped
    /// 200 with a valid document: now serving `revision`.
    case updated(revision: Int)
    /// 304: the copy is still current.
    case notModified
    /// 200 with a document this build cannot validate (or for another app): the last good copy stays.
    case rejected(reason: String)
    /// A status other than 200/304 (429, 5xx, 404, ...): the last good copy stays; backing off.
    case httpError(status: Int)
    /// No response (connection refused, timeout, DNS): the last good copy stays; backing off.
    case networkError(String)

    public var description: String {
        switch self {
        case .skipped: "skipped"
        case .updated(let revision): "updated to revision \(revision)"
        case .notModified: "not modified (304)"
        case .rejected(let reason): "rejected: \(reason)"
        case .httpError(let status): "HTTP \(status)"
        case .networkError(let message): "network error: \(message)"
        }
    }
}

/// What one flush did.
public struct FlushResult: Sendable, Hashable {
    /// Events the server newly stored.
    public var accepted: Int = 0
    /// Events the server already had (resent after a lost answer or a crash).
    public var duplicates: Int = 0
    /// Events dropped because the server refused their batch as invalid (never retried).
    public var rejected: Int = 0
    /// Events still queued afterwards.
    public var remaining: Int = 0
    /// Why the flush stopped early (HTTP status or network error), nil when it emptied the queue or was not due.
    public var failure: String?

    /// A result.
    public init(accepted: Int = 0, duplicates: Int = 0, rejected: Int = 0, remaining: Int = 0, failure: String? = nil) {
        self.accepted = accepted
        self.duplicates = duplicates
        self.rejected = rejected
        self.remaining = remaining
        self.failure = failure
    }
}
