import Foundation
import PreludeCore

/// What the client showed, when, and what the user did, per feature and screen kind: the history the engine
/// reads in ``ClientState``, kept by the client so cadence holds across launches and offline.
///
/// Persisted as one JSON file, replaced atomically after every change; an unreadable file starts an empty ledger
/// (the engine then treats every screen as never shown, which only ever shows a screen sooner).
public struct CadenceLedger: Sendable, Hashable, Codable {
    /// Per feature (raw name), per screen kind (raw name), the history.
    private var screens: [String: [String: ScreenHistory]] = [:]
    /// Features whose one system prompt already happened (tracking).
    private var promptedFeatures: Set<String> = []
    /// App-level consents the app recorded (feature raw name → granted); optional so that ledgers written before
    /// consents existed still load.
    private var consents: [String: Bool]?

    /// An empty ledger.
    public init() {}

    /// The history of `kind` screens for `feature`.
    public func history(of feature: Feature, _ kind: CadenceKind) -> ScreenHistory {
        screens[feature.rawValue]?[kind.rawValue] ?? .never
    }

    /// Every recorded kind for `feature`.
    public func histories(of feature: Feature) -> [CadenceKind: ScreenHistory] {
        var result: [CadenceKind: ScreenHistory] = [:]
        for (name, history) in screens[feature.rawValue] ?? [:] {
            if let kind = CadenceKind(rawValue: name) { result[kind] = history }
        }
        return result
    }

    /// Whether `feature`'s system prompt was already shown (the engine's `trackingPromptShown`).
    public func systemPromptShown(_ feature: Feature) -> Bool { promptedFeatures.contains(feature.rawValue) }

    /// Records that a `kind` screen of `feature` was shown at `instant`; the outcome is unknown until recorded.
    public mutating func recordShown(_ feature: Feature, _ kind: CadenceKind, at instant: Instant) {
        let previous = history(of: feature, kind)
        screens[feature.rawValue, default: [:]][kind.rawValue] = ScreenHistory(
            shownCount: previous.shownCount + 1, lastShown: instant, lastOutcome: nil)
    }

    /// Records what the user did on the last `kind` screen of `feature`.
    public mutating func recordOutcome(_ feature: Feature, _ kind: CadenceKind, _ outcome: ScreenOutcome) {
        var entry = history(of: feature, kind)
        entry.lastOutcome = outcome
        screens[feature.rawValue, default: [:]][kind.rawValue] = entry
    }

    /// Records that `feature`'s system prompt was shown.
    public mutating func recordSystemPrompt(_ feature: Feature) {
        promptedFeatures.insert(feature.rawValue)
    }

    /// An app-level consent's status: `authorized` (granted), `denied` (declined) or `notDetermined` (never
    /// answered). The app's own record is the status: no OS reports it.
    public func consentStatus(_ feature: Feature) -> AuthorizationStatus {
        guard let granted = consents?[feature.rawValue] else { return .notDetermined }
        return granted ? .authorized : .denied
    }

    /// Records the person's answer to an app-level consent (`granted` false: declined, or withdrawn later).
    public mutating func recordConsent(_ feature: Feature, granted: Bool) {
        consents = (consents ?? [:]).merging([feature.rawValue: granted]) { _, new in new }
    }

    /// How many screens were recorded in all (for the debug description).
    public var totalShown: Int { screens.values.reduce(0) { $0 + $1.values.reduce(0) { $0 + $1.shownCount } } }

    /// Reads a ledger file; nil when missing or unreadable.
    static func load(_ path: String) -> CadenceLedger? {
        guard let bytes = AtomicFile.read(path) else { return nil }
        return try? JSONDecoder().decode(CadenceLedger.self, from: Data(bytes))
    }

    /// Replaces the ledger file atomically.
    func store(_ path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        try AtomicFile.write([UInt8](try encoder.encode(self)), to: path)
    }
}
