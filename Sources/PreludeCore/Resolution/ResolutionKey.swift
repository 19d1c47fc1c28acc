/// Everything that changes what ``PolicyResolver`` resolves for one document, and nothing else: the served
/// locale, the platform, the inputs the document's rules look at, and the variant drawn in each experiment.
/// Never the raw install id, so every install with the same variants shares one resolution.
///
/// Equal keys (under one ``ResolutionKeyShape``) mean byte-identical resolved policies; a server may cache
/// resolutions by it. `ResolutionKeyPropertyTests` checks that over generated documents with rules on every input.
public struct ResolutionKey: Hashable, Sendable {
    /// The locale served.
    public let locale: LocaleTag
    /// The client's preferred locale, only when a rule targets locales.
    public let preferredLocale: LocaleTag?
    /// The platform.
    public let platform: Platform?
    /// The OS version, only when a rule or the button strategy looks at it.
    public let osVersion: SemanticVersion?
    /// The app version, only when a rule looks at it.
    public let appVersion: SemanticVersion?
    /// Per experiment in document order, the index of the variant drawn, or -1 when not enrolled.
    public let variants: [Int]

    /// The key of `context` for the document `shape` describes: resolves the locale and draws the variants
    /// (cheap hashing, no document walk).
    public init(context: ClientContext, shape: ResolutionKeyShape) {
        locale = LocaleResolver.resolve(
            explicit: context.locale, acceptLanguage: context.acceptLanguage, available: shape.availableLocales,
            defaultLocale: shape.defaultLocale)
        preferredLocale = shape.usesPreferredLocale ? context.preferredLocale : nil
        platform = context.platform
        osVersion = shape.usesOSVersion ? context.osVersion : nil
        appVersion = shape.usesAppVersion ? context.appVersion : nil
        if shape.experiments.isEmpty {
            variants = []
        } else if let installId = context.installId, !installId.isEmpty {
            // The draw PolicyResolver.assign makes (Bucketing.assign), with the ranges precomputed per document.
            variants = shape.experiments.map { $0.variant(for: installId) ?? -1 }
        } else {
            variants = Array(repeating: -1, count: shape.experiments.count)
        }
    }
}
