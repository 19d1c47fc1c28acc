import Foundation
import PreludeCore

/// What the client keeps by itself for conditions and `ask` rules, so the common moments need no app code: the
/// first launch, the launch count, the days active, per feature the last grant and denial, and the moments the app
/// reports (`PreludeClient.moment(_:)`).
///
/// Persisted as one JSON file beside the cadence ledger, replaced atomically after every change; an unreadable file
/// starts afresh (a moment then counts from zero, which only ever asks later). Bounded: at most
/// ``MomentRecord/maximumCount`` moment names, the least recently reported dropped first.
public struct ClientFacts: Sendable, Hashable, Codable {
    /// The first launch the client saw.
    public private(set) var firstLaunch: Instant?
    /// How many times the client was opened (one per `PreludeClient` created).
    public private(set) var launchCount = 0
    /// On how many distinct UTC days the client was opened.
    public private(set) var daysActive = 0
    /// The UTC day (days since 1970) of the last launch.
    private var lastActiveDay: Int?
    /// Per feature (raw name), the last grant.
    private var lastGranted: [String: Instant] = [:]
    /// Per feature (raw name), the last denial.
    private var lastDenied: [String: Instant] = [:]
    /// The moments reported, by name.
    private var moments: [String: StoredMoment] = [:]

    private struct StoredMoment: Sendable, Hashable, Codable {
        var count: Int
        var first: Instant
        var last: Instant
    }

    /// No facts yet.
    public init() {}

    /// Counts a launch at `now`.
    public mutating func recordLaunch(at now: Instant) {
        if firstLaunch == nil { firstLaunch = now }
        launchCount += 1
        let day = Int((now.secondsSinceEpoch / 86_400).rounded(.down))
        if lastActiveDay != day {
            daysActive += 1
            lastActiveDay = day
        }
    }

    /// Records the system's answer for `feature`.
    public mutating func recordAnswer(_ feature: Feature, granted: Bool, at now: Instant) {
        if granted { lastGranted[feature.rawValue] = now } else { lastDenied[feature.rawValue] = now }
    }

    /// Counts one occurrence of the moment `name`.
    ///
    /// - Throws: ``AttributeError/invalidName(_:)`` for a name outside `[a-zA-Z][a-zA-Z0-9_.]*` (nothing changes).
    public mutating func recordMoment(_ name: String, at now: Instant) throws(AttributeError) {
        var probe = ClientAttributes()
        try probe.set(name, to: .bool(true))  // the same name rule as attributes
        if var moment = moments[name] {
            moment.count = min(moment.count + 1, MomentRecord.maximumOccurrences)
            moment.last = now
            moments[name] = moment
            return
        }
        if moments.count >= MomentRecord.maximumCount,
            let stalest = moments.min(by: { ($0.value.last, $0.key) < ($1.value.last, $1.key) })?.key
        {
            moments[stalest] = nil
        }
        moments[name] = StoredMoment(count: 1, first: now, last: now)
    }

    /// The moments as the engine reads them.
    public var momentRecords: [String: MomentRecord] {
        moments.mapValues { MomentRecord(count: $0.count, first: $0.first, last: $0.last) }
    }

    /// The facts as `prelude.*` attributes: `prelude.firstLaunch` (RFC 3339), `prelude.launchCount`,
    /// `prelude.daysActive`, `prelude.<feature>.lastGranted` and `prelude.<feature>.lastDenied` (RFC 3339).
    public var attributes: [String: AttributeValue] {
        var result: [String: AttributeValue] = [
            "prelude.launchCount": .integer(launchCount), "prelude.daysActive": .integer(daysActive),
        ]
        if let firstLaunch { result["prelude.firstLaunch"] = .date(firstLaunch) }
        for (feature, instant) in lastGranted { result["prelude.\(feature).lastGranted"] = .date(instant) }
        for (feature, instant) in lastDenied { result["prelude.\(feature).lastDenied"] = .date(instant) }
        return result
    }

    /// Reads a facts file; nil when missing or unreadable.
    static func load(_ path: String) -> ClientFacts? {
        guard let bytes = AtomicFile.read(path) else { return nil }
        return try? JSONDecoder().decode(ClientFacts.self, from: Data(bytes))
    }

    /// Replaces the facts file atomically.
    func store(_ path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        try AtomicFile.write([UInt8](try encoder.encode(self)), to: path)
    }
}
