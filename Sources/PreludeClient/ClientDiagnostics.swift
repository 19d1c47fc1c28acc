import PreludeCore

/// A snapshot of the client's state for the app developer: which policy it serves and how fresh, what the last
/// fetch and flush did, how many events wait, and the QA overrides in force.
public struct ClientDiagnostics: Sendable, Hashable, CustomStringConvertible {
    /// Where the policy in use came from.
    public enum Source: String, Sendable, Hashable {
        /// No policy at all (no bootstrap, nothing cached or fetched): decisions throw.
        case none
        /// The bundled bootstrap document.
        case bootstrap
        /// The on-disk cache, from an earlier launch.
        case cache
        /// Fetched in this process.
        case network
    }

    /// The policy's source.
    public var source: Source
    /// Its revision (0 for a bootstrap copy).
    public var revision: Int?
    /// Its ETag.
    public var etag: String?
    /// How fresh it is now.
    public var freshness: RefreshSchedule.Freshness
    /// The last refresh's result, nil before the first.
    public var lastFetch: FetchResult?
    /// When it ran.
    public var lastFetchAt: Instant?
    /// No fetch before this instant (backoff or `Retry-After`).
    public var nextFetchNotBefore: Instant?
    /// Events waiting on disk.
    public var queueDepth: Int
    /// Events dropped (queue full, or refused by the server as invalid).
    public var droppedEvents: Int
    /// The last flush's failure, nil when it succeeded or none ran.
    public var lastFlushFailure: String?
    /// Screens recorded in the cadence ledger.
    public var ledgerShownCount: Int
    /// The forced locale (QA), if any.
    public var forcedLocale: String?
    /// The forced variants (QA), experiment key → variant.
    public var forcedVariants: [String: String]
    /// The install id in use.
    public var installId: String

    public var description: String {
        var lines = [
            "policy: \(source.rawValue), revision \(revision.map(String.init) ?? "-"), etag \(etag ?? "-"), \(freshness.rawValue)",
            "last fetch: \(lastFetch?.description ?? "none")\(lastFetchAt.map { " at \($0.secondsSinceEpoch)" } ?? "")",
            "events: \(queueDepth) queued, \(droppedEvents) dropped\(lastFlushFailure.map { ", last flush: \($0)" } ?? "")",
            "ledger: \(ledgerShownCount) screens shown",
            "install: \(installId)",
        ]
        if let nextFetchNotBefore {
            lines.insert("next fetch not before: \(nextFetchNotBefore.secondsSinceEpoch)", at: 2)
        }
        if forcedLocale != nil || !forcedVariants.isEmpty {
            let variants = forcedVariants.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            lines.append("QA overrides: locale \(forcedLocale ?? "-"), variants [\(variants.joined(separator: ", "))]")
        }
        return lines.joined(separator: "\n")
    }
}
