/// One screen the decision engine can choose for a feature, in one locale and one ``PreviewVariant``, with its
/// words and the lint findings that concern it. What `PreludePreview` draws.
public struct PreviewScreen: Sendable, Hashable {
    /// The feature.
    public var feature: Feature
    /// The locale asked for (one of the document's locales); texts may come from its fallbacks.
    public var locale: LocaleTag
    /// The layers applied.
    public var variant: PreviewVariant
    /// The action the engine returns with this screen (`prime`, `openSettings`, `deniedScreen`, ...).
    public var action: DecisionAction
    /// The screen whose copy is shown.
    public var screen: CopyScreen
    /// The priming style (priming screens only).
    public var style: PrimingStyle?
    /// The texts the engine returns, in the screen's field order.
    public var texts: [PreviewText]
    /// The fields this screen shows that have no text in any locale on the chain (the app gets none).
    public var missing: [CopyField]
    /// Findings about the screen as a whole (its style, its cadence, the feature's strategy).
    public var findings: [LintFinding]

    /// A screen with the given parts.
    public init(
        feature: Feature, locale: LocaleTag, variant: PreviewVariant, action: DecisionAction, screen: CopyScreen,
        style: PrimingStyle? = nil, texts: [PreviewText] = [], missing: [CopyField] = [],
        findings: [LintFinding] = []
    ) {
        self.feature = feature
        self.locale = locale
        self.variant = variant
        self.action = action
        self.screen = screen
        self.style = style
        self.texts = texts
        self.missing = missing
        self.findings = findings
    }

    /// `feature/locale/variant/action`: the same screen in two documents has the same id.
    public var id: String { "\(feature.rawValue)/\(locale)/\(variant.id)/\(action.rawValue)" }

    /// Every finding on the screen, its own and its texts'.
    public var allFindings: [LintFinding] { findings + texts.flatMap(\.findings) }

    /// The fields a device shows on this screen: the single-action priming style has no second label.
    public static func fields(of screen: CopyScreen, style: PrimingStyle?) -> [CopyField] {
        screen == .prime && style != .twoButton ? screen.fields.filter { $0 != .cancelLabel } : screen.fields
    }

    /// Whether `other` shows the same thing (words, style, findings), whatever its locale order or source.
    public func looksLike(_ other: PreviewScreen) -> Bool {
        action == other.action && style == other.style && missing == other.missing
            && texts.map(\.field) == other.texts.map(\.field) && texts.map(\.text) == other.texts.map(\.text)
            && Set(allFindings.map(\.ruleId)) == Set(other.allFindings.map(\.ruleId))
    }
}
