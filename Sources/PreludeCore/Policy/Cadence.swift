/// The resolved cadence of every screen kind of one feature.
public struct Cadence: Sendable, Hashable, Codable {
    /// Re-showing the priming screen after the user left it without continuing.
    public var prime: CadenceRule
    /// The Settings nudge after a denial.
    public var settings: CadenceRule
    /// The upgrade prompt after a partial grant.
    public var upgrade: CadenceRule

    /// A cadence with the given rules.
    public init(prime: CadenceRule, settings: CadenceRule, upgrade: CadenceRule) {
        self.prime = prime
        self.settings = settings
        self.upgrade = upgrade
    }

    /// Built-in values when the document says nothing: prime every 72 h ×2 up to 3 times; Settings nudge every
    /// 168 h ×2 up to 3 times; upgrade every 168 h ×2 up to 2 times.
    public static let builtIn = Cadence(
        prime: CadenceRule(minIntervalHours: 72, backoff: 2, maxShows: 3),
        settings: CadenceRule(minIntervalHours: 168, backoff: 2, maxShows: 3),
        upgrade: CadenceRule(minIntervalHours: 168, backoff: 2, maxShows: 2)
    )

    /// The rule for `kind`.
    public subscript(kind: CadenceKind) -> CadenceRule {
        get {
            switch kind {
            case .prime: prime
            case .settings: settings
            case .upgrade: upgrade
            }
        }
        set {
            switch kind {
            case .prime: prime = newValue
            case .settings: settings = newValue
            case .upgrade: upgrade = newValue
            }
        }
    }
}
