/// Settings of a feature where every field is optional: the shape of `defaults`, of a feature's own settings,
/// of a targeting rule's `set` and of a variant's `set`. Resolution layers them, later layers winning field by
/// field (copy text by text).
public struct FeatureOverride: Sendable, Hashable {
    /// How to ask while `notDetermined`.
    public var strategy: Strategy?
    /// The priming screen's layout.
    public var style: PrimingStyle?
    /// Cadence fields per screen kind.
    public var cadence: [CadenceKind: CadenceRuleOverride]
    /// Overrides `SettingsBehaviour.delayMs`.
    public var settingsDelayMs: Int?
    /// Overrides `SettingsBehaviour.leaveScreenFirst`.
    public var settingsLeaveScreenFirst: Bool?
    /// What to do per partial status.
    public var partial: [AuthorizationStatus: PartialAction]
    /// Copy per locale.
    public var copy: [LocaleTag: CopySet]
    /// When the feature may be asked for at all; nil inherits (built in: ``AskRule/anytime``).
    public var ask: AskRule?

    /// An override of the given fields.
    public init(
        strategy: Strategy? = nil,
        style: PrimingStyle? = nil,
        cadence: [CadenceKind: CadenceRuleOverride] = [:],
        settingsDelayMs: Int? = nil,
        settingsLeaveScreenFirst: Bool? = nil,
        partial: [AuthorizationStatus: PartialAction] = [:],
        copy: [LocaleTag: CopySet] = [:],
        ask: AskRule? = nil
    ) {
        self.ask = ask
        self.strategy = strategy
        self.style = style
        self.cadence = cadence
        self.settingsDelayMs = settingsDelayMs
        self.settingsLeaveScreenFirst = settingsLeaveScreenFirst
        self.partial = partial
        self.copy = copy
    }

    /// Whether nothing is set.
    public var isEmpty: Bool {
        strategy == nil && style == nil && cadence.isEmpty && settingsDelayMs == nil && settingsLeaveScreenFirst == nil
            && partial.isEmpty && copy.isEmpty && ask == nil
    }

    /// This override with `other` layered on top: `other`'s set fields win, cadence field by field, copy text by text.
    public func merging(_ other: FeatureOverride) -> FeatureOverride {
        var result = self
        result.strategy = other.strategy ?? strategy
        result.style = other.style ?? style
        result.ask = other.ask ?? ask
        for (kind, rule) in other.cadence {
            result.cadence[kind] = (cadence[kind] ?? CadenceRuleOverride()).merging(rule)
        }
        result.settingsDelayMs = other.settingsDelayMs ?? settingsDelayMs
        result.settingsLeaveScreenFirst = other.settingsLeaveScreenFirst ?? settingsLeaveScreenFirst
        result.partial.merge(other.partial) { _, new in new }
        for (locale, set) in other.copy {
            result.copy[locale] = (copy[locale] ?? CopySet()).merging(set)
        }
        return result
    }

    /// The resolved cadence: built-in values with these fields applied.
    public var effectiveCadence: Cadence {
        var result = Cadence.builtIn
        for kind in CadenceKind.allCases {
            if let rule = cadence[kind] { result[kind] = result[kind].applying(rule) }
        }
        return result
    }

    /// The resolved Settings behaviour: built-in values with these fields applied.
    public var effectiveSettings: SettingsBehaviour {
        SettingsBehaviour(
            delayMs: settingsDelayMs ?? SettingsBehaviour.builtIn.delayMs,
            leaveScreenFirst: settingsLeaveScreenFirst ?? SettingsBehaviour.builtIn.leaveScreenFirst
        )
    }
}
