import Foundation
import PreludeClient
import PreludeCore
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A clock the reference client moves by hand (starting ten days in the past, so events a scenario dates days
/// later are still in the server's accepted window).
final class DemoClock: PreludeClock {
    private let seconds: Mutex<Double>

    init(start: Double) { seconds = Mutex(start) }

    func now() -> Instant { Instant(secondsSinceEpoch: seconds.withLock { $0 }) }

    func advance(hours: Double) { seconds.withLock { $0 += hours * 3600 } }
}

/// A mismatch between what a scenario expected and what happened.
struct DemoFailure: Error, CustomStringConvertible {
    var description: String
}

/// One scenario's app: a fresh client (own storage, own install id), a scripted device and the flow over them.
struct DemoApp {
    let name: String
    let client: PreludeClient
    let device = ScriptedDevice()
    let clock: DemoClock
    let flow: PermissionFlow

    init(
        name: String, server: URL, app: String, run: String, os: String, locale: String, platform: Platform,
        start: Double
    ) throws {
        self.name = name
        clock = DemoClock(start: start)
        let storage = FileManager.default.temporaryDirectory.appendingPathComponent("prelude-demo-\(run)-\(name)")
        try? FileManager.default.removeItem(at: storage)
        var configuration = PreludeClientConfiguration(server: server, app: app, storageDirectory: storage)
        configuration.context = ClientContext(
            platform: platform, osVersion: SemanticVersion(os), appVersion: SemanticVersion("2.3.0"), locale: locale,
            installId: Self.installId(run: run, name: name))
        configuration.clock = clock
        client = try PreludeClient(configuration: configuration)
        // Every purpose string present, as a correctly configured app target has them.
        let strings = Feature.allCases.flatMap { UsageDescriptionCheck.requiredKeys(for: $0) }
        flow = PermissionFlow(
            client: client, device: device,
            usageDescriptions: UsageDescriptionCheck(
                strings: Dictionary(strings.map { ($0, "Set.") }, uniquingKeysWith: { a, _ in a })))
    }

    /// The demo policy's photos experiment (config/demo-policy.json): ask first, or present PhotosPicker.
    static let photosExperimentSeed = "photos-ask-vs-picker-2026-11"

    /// `demo-RUN-NAME`, with a suffix for the photos flows so each lands in the arm it plays: the seed flows ask
    /// (arm 0, `ask`), `photos-picker-arm` presents the picker (arm 1). The first suffix that lands there is used.
    static func installId(run: String, name: String) -> String {
        let base = "demo-\(run)-\(name)"
        guard name.hasPrefix("photos") else { return base }
        let arm = name == "photos-picker-arm" ? 1 : 0
        for suffix in 0..<1_000
        where Bucketing.assign(
            seed: photosExperimentSeed, installId: "\(base)-\(suffix)", weights: [50, 50], coverage: 1) == arm
        {
            return "\(base)-\(suffix)"
        }
        return base
    }

    /// Checks `decision` has `action` (and `reason`, when given).
    func expect(_ decision: Decision?, _ action: DecisionAction, _ reason: DecisionReason? = nil) throws {
        guard let decision, decision.action == action, reason == nil || decision.reason == reason else {
            throw DemoFailure(
                description: "\(name): expected \(action)\(reason.map { " (\($0))" } ?? ""), got "
                    + (decision.map { "\($0.action) (\($0.reason))" } ?? "no decision"))
        }
    }

    /// Checks the events queued so far are `types`, in order.
    func expectEvents(_ types: [AnalyticsEvent]) async throws {
        let queued = await client.queuedEvents.map(\.type)
        guard queued == types else {
            throw DemoFailure(
                description: "\(name): expected events \(types.map(\.rawValue)), queued \(queued.map(\.rawValue))")
        }
    }
}
